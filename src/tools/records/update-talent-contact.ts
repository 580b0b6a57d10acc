import * as z from "zod";
import type {
  CustomFieldTypeValueInput,
  TalentContactCustomFieldsQuery,
} from "../../client/operation-types.generated.js";
import {
  type TalentContactForUpdate,
  talentContactCustomFieldsQuery,
  talentContactForUpdateQuery,
  talentContactsForUpdateQuery,
  updateTrustedContactMutation,
} from "../../client/operations/records.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import {
  type BoundSend,
  confirmationTokenArg,
  confirmedWrite,
  type Proposal,
  previewTokenOutput,
  whole,
} from "../confirmation.js";
import { defineTool, shown, type ToolContext, ToolInputError } from "../define-tool.js";
import { requestOptions } from "../format.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { hiddenCharacters, holdsHidden, REMOVE_HIDDEN } from "../sent-text.js";
import { fieldValueOrNoneOutput } from "../shapes/custom-field.js";
import { idAndName, toIdAndName } from "../shapes/named.js";

const TOOL = "update_talent_contact";
const RIGHTS = "talent pool management";
const MAX_FIELDS = 25;
const MAX_TEXT = 255;

const changeOutput = z.object({
  fieldId: z.string(),
  title: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
type Change = z.infer<typeof changeOutput>;

const previewOutput = z.object({
  contactId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  company: idAndName,
  status: z.string(),
  changes: z.array(changeOutput),
});
type Preview = z.infer<typeof previewOutput>;

export const updateTalentContactTool = defineTool({
  name: TOOL,
  title: "Update talent contact",
  toolset: "records",
  instruction:
    "update_talent_contact sets custom field values (by field name or id) on a talent-pool contact found by id, name or email; it needs the person's confirmation.",
  readme: {
    does: "Sets custom field values on a talent-pool contact, by contact id, name or email (preview, then the person confirms)",
    changes: "yes, overwrites the values shown",
  },
  description: [
    "Set custom field values (single-select or free text) on a talent-pool contact.",
    'Use when: "mark Jane Doe as Preferred talent tier". Do not use for: finding contacts (search_talent_pool) or inviting them (invite_to_talent_pool).',
    "contact: the contact's id, or the person's full name or email. field: the field's name or id; value: an option or text, \"\" clears it.",
    "Returns: a preview (current → new per field) and a confirmationToken; once the person agrees, repeat the call with it.",
    'Example: {"contact": "30571", "values": [{"field": "Talent tier", "value": "Preferred"}]}',
  ].join("\n"),
  inputSchema: {
    contact: z.string().trim().min(1).describe("Contact id, or the person's name or email."),
    values: z
      .array(
        z.object({
          field: z.string().describe("Field name or id."),
          value: z.string().describe('Option or text; "" clears.'),
        }),
      )
      .min(1)
      .describe("Custom fields to set."),
    confirmationToken: confirmationTokenArg,
  },
  outputSchema: {
    status: z.enum(["preview", "changed", "updated", "declined", "outcome-unknown"]),
    contactId: z.string().optional(),
    preview: previewOutput.optional(),
    ...previewTokenOutput,
    values: z.array(fieldValueOrNoneOutput).optional(),
    note: z.string().optional(),
  },
  // The old values are overwritten (the preview shows them); setting the same values again
  // changes nothing more.
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    const { confirmationToken, ...call } = args;
    const asked = checkValues(args.values);
    // Resolved once, before the confirmation: the token binds the contact it found (a fact). This
    // read is the platform as it is now, and the preview is made from it: not read a second time.
    const contact = await findContact(ctx, args.contact);
    const contactId = contact.id;
    return confirmedWrite(ctx, {
      tool: TOOL,
      args: call,
      token: confirmationToken,
      target: `contact ${contactId}`,
      check: checkFor(contactId),
      propose: () => propose(ctx, contact, asked),
      fields: ({ preview }) => ({ contactId, preview }),
      declined: () => ({ text: `Contact ${oneLine(contactId)} keeps its values.` }),
      apply: ({ preview: plan }, send) => update(ctx, send, plan),
    });
  },
});

const checkFor = (id: string) =>
  `query_platform ({ trustedContact(id: "${oneLine(id)}") { customFieldValues { customField { title } displayValue } } })`;

/** The {field, value} pairs: each field once, values without hidden characters, within limits. */
function checkValues(values: { field: string; value: string }[]) {
  if (values.length > MAX_FIELDS) {
    throw new ToolInputError(`takes at most ${MAX_FIELDS} fields at once`, "values");
  }
  return values.map(({ field, value }, i) => {
    if (field.trim() === "") throw new ToolInputError("must not be empty", `values[${i}].field`);
    const text = value.trim();
    if (text.length > MAX_TEXT) {
      throw new ToolInputError(
        `is ${text.length} characters, longer than the ${MAX_TEXT} this tool sets`,
        `values[${i}].value`,
        "A value is never cut: the person must see exactly what is set.",
      );
    }
    const hidden = hiddenCharacters(text);
    if (hidden.length > 0) {
      throw new ToolInputError(`${holdsHidden(hidden)}`, `values[${i}].value`, REMOVE_HIDDEN);
    }
    return { field: field.trim(), value: text };
  });
}

/**
 * The contact by id, else by the person's full name or email among the contacts the caller sees.
 * Several matches (the same person in several companies' pools, or namesakes) are listed by id.
 */
async function findContact(ctx: ToolContext, given: string): Promise<TalentContactForUpdate> {
  const options = requestOptions(ctx);
  // A name or an email is never an id: only a single word is looked up as one first.
  if (!/[\s@]/.test(given)) {
    const byId = await readContact(ctx, given);
    if (byId) return byId;
  }
  const found = (await ctx.client.run(talentContactsForUpdateQuery, { search: given }, options))
    .data.trustedContacts.data;
  const wanted = given.toLowerCase();
  const exact = found.filter(
    (c) => c.worker.name.toLowerCase() === wanted || c.worker.email?.toLowerCase() === wanted,
  );
  const list = (contacts: TalentContactForUpdate[]) =>
    contacts
      .slice(0, 10)
      .map(
        (c) =>
          `${oneLine(c.id)} ${quoted(c.worker.name)}${c.worker.email ? ` (${quoted(c.worker.email)})` : ""} in ${quoted(c.company.name)}`,
      )
      .join("; ");
  if (exact.length === 1) return exact[0] as TalentContactForUpdate;
  if (exact.length > 1) {
    throw new ToolInputError(
      `${quoted(shown(given))} matches ${exact.length} talent-pool contacts: ${list(exact)}`,
      "contact",
      "Give the contact's id. Nothing was changed.",
    );
  }
  throw new ToolInputError(
    `no talent-pool contact visible to you has the id, full name or email ${quoted(shown(given))}`,
    "contact",
    found.length > 0
      ? `Contacts whose name or email contains it: ${list(found)}. Give one of their ids. Nothing was changed.`
      : "Find the contact with search_talent_pool (search: part of the name or email) and give its id. Nothing was changed.",
  );
}

interface Plan {
  contactId: string;
  preview: Preview;
  inputs: CustomFieldTypeValueInput[];
  /** What a read must show for each field once the change is made: option id or text, or null. */
  expected: Array<{ fieldId: string; optionId: string | null; text: string | null }>;
}

type FieldDefinition = TalentContactCustomFieldsQuery["customFields"]["data"][number];

async function readFields(ctx: ToolContext, company: string): Promise<FieldDefinition[]> {
  const { data } = await ctx.client.run(
    talentContactCustomFieldsQuery,
    { company },
    requestOptions(ctx),
  );
  // Fields the company owns: a field shared by another account is not the company's to set.
  return data.customFields.data.filter((f) => f.account.id === company);
}

async function readContact(ctx: ToolContext, id: string): Promise<TalentContactForUpdate | null> {
  return (await ctx.client.run(talentContactForUpdateQuery, { id }, requestOptions(ctx))).data
    .trustedContact;
}

/** The field the person named, by id, slug or title (any letter case). */
function matchField(fields: FieldDefinition[], wanted: string) {
  const w = wanted.toLowerCase();
  return (
    fields.find((f) => f.id === wanted || f.slug?.toLowerCase() === w) ??
    fields.find((f) => f.title.trim().toLowerCase() === w)
  );
}

/** The contact's current value of a field: its option id and what it shows. */
function currentOf(contact: TalentContactForUpdate, fieldId: string) {
  const v = contact.customFieldValues.find((x) => x.customField.id === fieldId);
  return { optionId: v?.customFieldOption?.id ?? null, shown: v?.displayValue ?? null };
}

async function propose(
  ctx: ToolContext,
  contact: TalentContactForUpdate,
  asked: { field: string; value: string }[],
): Promise<Proposal<Plan>> {
  const company = contact.company;
  const fields = await readFields(ctx, company.id);
  const known = () =>
    fields.length > 0
      ? `Its talent-pool fields: ${fields.map((f) => `${quoted(f.title)} (${oneLine(f.id)}, ${oneLine(f.fieldType)}${f.customFieldOptions.length > 0 ? `: ${f.customFieldOptions.map((o) => quoted(o.value)).join(", ")}` : ""})`).join("; ")}. Nothing was changed.`
      : "It has no custom fields on talent-pool contacts. Nothing was changed.";
  const changes: Change[] = [];
  const unchanged: string[] = [];
  const readAsId: string[] = [];
  const inputs: CustomFieldTypeValueInput[] = [];
  const expected: Plan["expected"] = [];
  const seen = new Set<string>();
  asked.forEach(({ field: wanted, value }, i) => {
    const field = matchField(fields, wanted);
    if (!field) {
      throw new ToolInputError(
        `the talent pool of ${quoted(company.name)} has no custom field ${quoted(shown(wanted))}`,
        `values[${i}].field`,
        known(),
      );
    }
    if (seen.has(field.id)) {
      throw new ToolInputError(
        `${quoted(field.title)} is given more than once`,
        `values[${i}].field`,
        "Give each field once. Nothing was changed.",
      );
    }
    seen.add(field.id);
    const now = currentOf(contact, field.id);
    const clear = value === "";
    if (clear && field.settings.validation.includes("REQUIRED")) {
      throw new ToolInputError(
        `${quoted(field.title)} is required and cannot be cleared`,
        `values[${i}].value`,
        "Give one of its values instead. Nothing was changed.",
      );
    }
    let to: string | null;
    if (field.fieldType === "SINGLE_SELECT") {
      // An option's id always wins over another option's value; the preview says when both fit.
      const byId = field.customFieldOptions.find((o) => o.id === value);
      const byValue = field.customFieldOptions.find(
        (o) => o.value.trim().toLowerCase() === value.toLowerCase(),
      );
      const option = clear ? null : (byId ?? byValue);
      if (byId && byValue && byId !== byValue) {
        readAsId.push(
          `${whole(value)} for ${whole(field.title)} is read as the id of option ${whole(byId.value)} (${oneLine(byId.id)}), not as the option ${oneLine(byValue.id)} whose value it also is.`,
        );
      }
      if (option === undefined) {
        throw new ToolInputError(
          `${quoted(shown(value))} is not an option of ${quoted(field.title)}`,
          `values[${i}].value`,
          `Its options: ${field.customFieldOptions.map((o) => quoted(o.value)).join(", ")}; or "" to clear it. Nothing was changed.`,
        );
      }
      to = option ? option.value : null;
      if ((option?.id ?? null) === now.optionId) {
        unchanged.push(field.title);
        return;
      }
      inputs.push({ singleSelect: { id: field.id, value: option ? option.id : null } });
      expected.push({ fieldId: field.id, optionId: option ? option.id : null, text: null });
    } else if (field.fieldType === "FREE_TEXT") {
      to = clear ? null : value;
      if (to === now.shown) {
        unchanged.push(field.title);
        return;
      }
      inputs.push({ freeText: { id: field.id, value: to } });
      expected.push({ fieldId: field.id, optionId: null, text: to });
    } else {
      throw new ToolInputError(
        `${quoted(field.title)} is a ${oneLine(field.fieldType)} field, which this tool cannot set`,
        `values[${i}].field`,
        "Set it in the platform's web app. Nothing was changed.",
      );
    }
    changes.push({ fieldId: field.id, title: field.title, from: now.shown, to });
  });
  if (changes.length === 0) {
    throw new ToolInputError(
      `nothing would change: contact ${oneLine(contact.id)} (${quoted(contact.worker.name)}) already has these values (${unchanged.map((t) => quoted(t)).join(", ")})`,
      "values",
      "Nothing was changed.",
    );
  }
  const preview: Preview = {
    contactId: contact.id,
    name: contact.worker.name,
    email: contact.worker.email,
    company: toIdAndName(company),
    status: contact.status,
    changes,
  };
  const shownValue = (v: string | null) => (v === null ? "none" : whole(v));
  return {
    preview: { contactId: contact.id, preview, inputs, expected },
    lines: [
      `Update talent-pool contact ${oneLine(contact.id)}: ${whole(contact.worker.name)}${contact.worker.email ? ` (${whole(contact.worker.email)})` : ""} in the talent pool of ${whole(company.name)} (${oneLine(company.id)}), status ${oneLine(contact.status)}.`,
      ...changes.map(
        (c) =>
          `${whole(c.title)} (${oneLine(c.fieldId)}): ${shownValue(c.from)} → ${c.to === null ? "cleared" : whole(c.to)}.`,
      ),
      ...(unchanged.length > 0
        ? [`Already so, left as they are: ${unchanged.map((t) => whole(t)).join(", ")}.`]
        : []),
      ...readAsId,
    ],
    consequence:
      "The current values shown are overwritten; the platform keeps no earlier value to go back to. The worker is not told.",
    question: "Update this contact?",
    facts: {
      contact: contact.id,
      name: contact.worker.name,
      email: contact.worker.email,
      company: company.name,
      ...Object.fromEntries(changes.map((c) => [`current ${c.title}`, c.from])),
      ...Object.fromEntries(changes.map((c) => [`new ${c.title}`, c.to])),
      // What the preview showed as ids is what is sent: a field or option whose title or value
      // moved to another id since the preview is a change the person did not see.
      ...Object.fromEntries(changes.map((c) => [`field ${c.title}`, c.fieldId])),
      ...Object.fromEntries(
        expected
          .filter((e) => e.optionId !== null)
          .map((e) => [`option of ${e.fieldId}`, e.optionId]),
      ),
    },
  };
}

async function update(ctx: ToolContext, send: BoundSend, plan: Plan) {
  const { contactId, preview } = plan;
  const shows = (c: TalentContactForUpdate | null) =>
    c !== null &&
    plan.expected.every((e) => {
      const now = currentOf(c, e.fieldId);
      return e.optionId !== null
        ? now.optionId === e.optionId
        : e.text !== null
          ? now.shown === e.text
          : now.shown === null && now.optionId === null;
    });
  const updateContact = refusedAsNotAllowed(
    async () =>
      (
        await ctx.client.run(
          updateTrustedContactMutation,
          { input: { id: contactId, customFieldValues: plan.inputs } },
          requestOptions(ctx),
        )
      ).data.updateTrustedContact,
    `update contacts in the talent pool of ${quoted(preview.company.name)}`,
    RIGHTS,
  );
  const base = { contactId, preview };
  return send({
    what: `Update of talent-pool contact ${oneLine(contactId)}`,
    fields: base,
    send: updateContact,
    readBack: () => readContact(ctx, contactId),
    applied: shows,
    done(sent) {
      const c = sent.kind === "sent" ? sent.data : (sent.state as TalentContactForUpdate);
      const values = preview.changes.map((ch) => ({
        fieldId: ch.fieldId,
        title: ch.title,
        value: currentOf(c, ch.fieldId).shown,
      }));
      const late =
        sent.kind === "read-back"
          ? " (The answer was lost after the request was sent; it was not sent again, and reading the contact back shows the new values.)"
          : "";
      return {
        structured: {
          status: "updated" as const,
          ...base,
          values,
          ...(late ? { note: late.trim() } : {}),
        },
        text: `Talent-pool contact ${oneLine(contactId)} (${whole(c.worker.name)}) updated: ${values.map((v) => `${whole(v.title)} ${v.value === null ? "cleared" : whole(v.value)}`).join("; ")}.${late}`,
      };
    },
  });
}
