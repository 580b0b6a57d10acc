import { randomUUID } from "node:crypto";
import * as z from "zod";
import { AuthorizationError } from "../../client/errors.js";
import type {
  CreateDraftHireMutationVariables,
  CustomFieldTypeValueInput,
} from "../../client/operation-types.generated.js";
import {
  createDraftHireMutation,
  type DraftHire,
  draftHireFieldsQuery,
  type HireCustomFieldDefinition,
  hiresByExternalIdQuery,
} from "../../client/operations/hires.js";
import {
  type InvitedContact,
  poolContactsByWorkerQuery,
  trustedContactQuery,
} from "../../client/operations/talent-invitations.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { sendWrite, whole } from "../confirmation.js";
import { defineTool, type ToolContext, ToolInputError } from "../define-tool.js";
import { dateSchema, period, rateText, requestOptions, upperCaseEnum } from "../format.js";
import { contactByName, withCompanyId } from "../known-ids.js";
import { refusedAsNotAllowed } from "../not-allowed.js";
import { type FieldValueOut, fieldValueOutput } from "../shapes/custom-field.js";
import { type DraftHireOut, draftHireOutput, toDraftHire } from "../shapes/hire.js";

const RATE_TYPES = ["HOURLY", "DAILY", "WEEKLY", "MONTHLY", "FIXED"] as const;

const TOOL = "create_draft_hire";

export const createDraftHireTool = defineTool({
  name: TOOL,
  title: "Create draft hire",
  toolset: "hires",
  instruction:
    "create_draft_hire sets up a DRAFT hire (job, terms, optionally a talent pool contact); nothing reaches anyone until it is offered on the platform.",
  readme: {
    does: "A DRAFT hire for a talent-pool contact (by id, name or email) or with no worker yet; sent with an external id, so a lost answer is read back and a repeat is refused, naming the hire that has it",
    changes: "yes (a draft tells no one)",
  },
  description: [
    "Create a DRAFT hire (new job, draft contract) for a talent pool contact or with no worker yet. Nothing reaches anyone until offered on the platform; undo with cancel_hire.",
    "Use when: asked to set up a hire.",
    "Do not use for: finding contact ids (use search_talent_pool).",
    "Returns: the hire id and terms; an externalIdentifier in use names its hire instead.",
    'Example: {"company":"214","name":"Data Engineer","trustedContact":"7731","rate":650}',
  ].join("\n"),
  // Lengths are checked in the handler, not in the schema: every byte here is read on every turn.
  inputSchema: {
    company: z.string().min(1).describe("Company id or name."),
    name: z.string().describe("Job title."),
    trustedContact: z
      .string()
      .optional()
      .describe("Talent pool contact id, or their name or email."),
    rate: z.number().optional().describe("Company currency."),
    rateType: upperCaseEnum(RATE_TYPES).optional().describe("Rate unit."),
    startDate: dateSchema("YYYY-MM-DD."),
    endDate: dateSchema("YYYY-MM-DD.").optional(),
    purchaseOrderNumber: z.string().optional().describe("PO number."),
    customFieldValues: z
      .array(
        z.object({
          field: z.string().describe("Id or slug."),
          value: z.string().describe("Option or text."),
        }),
      )
      .optional()
      .describe("Hire custom fields."),
    externalIdentifier: z.string().optional().describe("Your system's id."),
  },
  outputSchema: {
    status: z.enum(["created", "exists", "outcome-unknown"]),
    externalIdentifier: z.string(),
    hire: draftHireOutput.optional(),
    customFields: z.array(fieldValueOutput).optional(),
    note: z.string().optional(),
  },
  annotations: {
    readOnlyHint: false,
    // A draft reaches no one and can be cancelled.
    destructiveHint: false,
    // Without an externalIdentifier, a second call makes a second hire.
    idempotentHint: false,
    openWorldHint: true,
  },
  async handler(args, ctx) {
    checkLengths(args);
    // Always an identifier, so the hire can be found again if the answer to the create is lost.
    const externalIdentifier = args.externalIdentifier ?? `wfmcp-${randomUUID()}`;
    const base = { externalIdentifier };
    // A repeat with the caller's identifier names the hire it made, and makes no second one.
    const existing = args.externalIdentifier ? await hiresWith(ctx, externalIdentifier) : [];
    if (existing.length > 0) return existsResult(existing, externalIdentifier);
    // A company's or a person's name where an id belongs is read as that id, and said.
    const companies = await withCompanyId(ctx, args);
    const company = companies.args.company;
    const found = args.trustedContact ? await findContact(ctx, company, args.trustedContact) : null;
    const contact = found?.contact ?? null;
    const fields = args.customFieldValues?.length
      ? await customFieldInputs(ctx, company, args.customFieldValues)
      : { inputs: [], shown: [] };
    // The same draft, as far as a retry goes: by the caller's identifier, else by its terms.
    const target = args.externalIdentifier
      ? `draft hire ${oneLine(externalIdentifier)}`
      : `draft hire ${whole(args.name)} at ${oneLine(company)}${contact ? ` for ${oneLine(contact.id)}` : ""}`;
    const check = `search_hires (externalIdentifiers [${whole(externalIdentifier)}])`;

    const input: CreateDraftHireMutationVariables["input"] = {
      company,
      name: args.name,
      externalIdentifier,
      ...(contact ? { trustedContact: contact.id } : {}),
      ...(args.rate !== undefined ? { rate: args.rate } : {}),
      ...(args.rateType ? { rateType: args.rateType } : {}),
      ...(args.startDate ? { startDate: args.startDate } : {}),
      ...(args.endDate ? { endDate: args.endDate } : {}),
      ...(args.purchaseOrderNumber ? { purchaseOrderNumber: args.purchaseOrderNumber } : {}),
      ...(fields.inputs.length > 0 ? { customFieldValues: fields.inputs } : {}),
    };
    const sent = await sendWrite(ctx, {
      tool: TOOL,
      target,
      check,
      send: refusedAsNotAllowed(
        async () =>
          (await ctx.client.run(createDraftHireMutation, { input }, requestOptions(ctx))).data
            .createDraftHire,
        `create hires for company ${oneLine(company)}`,
        "hire management",
      ),
      // No hire had the identifier before this create: any that has it now is this one.
      readBack: () => hiresWith(ctx, externalIdentifier),
      applied: (hires) => hires.length > 0,
    });

    if (sent.kind === "unknown") {
      return {
        isError: true,
        structured: { status: "outcome-unknown" as const, ...base, note: sent.text },
        text: `Draft hire with external id ${whole(externalIdentifier)}: ${sent.text}`,
      };
    }
    const hire = sent.kind === "sent" ? sent.data : (sent.state[0] as DraftHire);
    const customFields = fields.shown.length > 0 ? { customFields: fields.shown } : {};
    const structured = {
      status: "created" as const,
      ...base,
      hire: toDraftHire(hire, args.rate ?? null, args.rateType ?? null),
      ...customFields,
      ...(sent.kind === "read-back"
        ? { note: "The answer was lost after sending; looking it up found the new hire." }
        : {}),
    };
    return {
      structured,
      text: createdText(structured.hire, fields.shown, externalIdentifier, {
        withContact: contact !== null,
        foundAfterDrop: sent.kind === "read-back",
        notes: [...companies.notes, ...(found?.note ? [found.note] : [])],
      }),
    };
  },
});

/** A hire already has the caller's identifier: said, with the hire, and nothing is created. */
function existsResult(hires: DraftHire[], externalIdentifier: string) {
  const [first] = hires as [DraftHire, ...DraftHire[]];
  const more = hires.length > 1 ? ` (and ${hires.length - 1} more)` : "";
  return {
    isError: true,
    structured: {
      status: "exists" as const,
      externalIdentifier,
      hire: toDraftHire(first, null, null),
    },
    text: `Nothing was created: hire ${oneLine(first.id)}${more} already has external id ${whole(externalIdentifier)} (status ${oneLine(first.status)}, job ${whole(first.latestContract.jobName)} at company ${whole(first.company.name)}, worker ${whole(first.worker.name)}); it may come from an earlier call. See it with get_hire (hireId ${oneLine(first.id)}); for another hire, give another externalIdentifier.`,
  };
}

const TEXT_MAX = 200;

function checkLengths(args: {
  name: string;
  rate?: number;
  trustedContact?: string;
  purchaseOrderNumber?: string;
  externalIdentifier?: string;
  customFieldValues?: { field: string; value: string }[];
}): void {
  const texts: [string, string | undefined][] = [
    ["name", args.name],
    ["trustedContact", args.trustedContact],
    ["purchaseOrderNumber", args.purchaseOrderNumber],
    ["externalIdentifier", args.externalIdentifier],
  ];
  for (const [argument, value] of texts) {
    if (value === undefined) continue;
    if (value.trim() === "") throw new ToolInputError("must not be empty", argument);
    if (value.length > TEXT_MAX) {
      throw new ToolInputError(`is longer than ${TEXT_MAX} characters`, argument);
    }
  }
  if (args.rate !== undefined && args.rate < 0) {
    throw new ToolInputError("must be 0 or more", "rate");
  }
  const values = args.customFieldValues ?? [];
  if (values.length > 25) {
    throw new ToolInputError("takes at most 25 fields", "customFieldValues");
  }
  values.forEach((v, i) => {
    if (v.field.trim() === "") {
      throw new ToolInputError("must not be empty", `customFieldValues[${i}].field`);
    }
    if (v.value.length > 2000) {
      throw new ToolInputError("is longer than 2000 characters", `customFieldValues[${i}].value`);
    }
  });
}

async function hiresWith(ctx: ToolContext, externalIdentifier: string): Promise<DraftHire[]> {
  const { data } = await ctx.client.run(
    hiresByExternalIdQuery,
    { externalIdentifier },
    requestOptions(ctx),
  );
  return data.hires.data;
}

/**
 * The contact, if it is in the company's talent pool and visible to the account. A worker's id
 * given instead is recognised: that worker's contact in this company's pool is the one meant.
 */
async function findContact(
  ctx: ToolContext,
  company: string,
  id: string,
): Promise<{ contact: InvitedContact; note?: string }> {
  let contact: InvitedContact | null = null;
  try {
    contact = (await ctx.client.run(trustedContactQuery, { id }, requestOptions(ctx))).data
      .trustedContact;
  } catch (error) {
    // Another company's contact reads as "not authorised": for this tool it is not in the pool.
    if (!(error instanceof AuthorizationError)) throw error;
  }
  if (contact && contact.company.id === company) return { contact };
  const { data } = await ctx.client.run(
    poolContactsByWorkerQuery,
    { company, worker: id },
    requestOptions(ctx),
  );
  const ofWorker = data.trustedContacts.data.filter((c) => c.company.id === company);
  if (ofWorker.length === 1) {
    return {
      contact: ofWorker[0] as InvitedContact,
      note: `trustedContact ${oneLine(id)} is a worker id; their talent pool contact at this company was used.`,
    };
  }
  const named = await contactByName(ctx, id, "trustedContact", company);
  if (named) return named;
  throw new ToolInputError(
    `${oneLine(id)} is neither a contact in the talent pool of company ${oneLine(company)} that your account can see, nor a worker with one, nor the name or email of one`,
    "trustedContact",
    "Find the contact's id with search_talent_pool (search: the person's name or email). Nothing was created.",
  );
}

/** The person's {field, value} pairs as the platform's CustomFieldTypeValueInput, by field type. */
async function customFieldInputs(
  ctx: ToolContext,
  company: string,
  given: { field: string; value: string }[],
): Promise<{ inputs: CustomFieldTypeValueInput[]; shown: FieldValueOut[] }> {
  const { data } = await ctx.client.run(draftHireFieldsQuery, { company }, requestOptions(ctx));
  const fields = data.customFields.data;
  const inputs: CustomFieldTypeValueInput[] = [];
  const shown: FieldValueOut[] = [];
  given.forEach(({ field: wanted, value }, i) => {
    const field = matchField(fields, wanted);
    if (!field) {
      const known = fields.map((f) => `${quoted(f.title)} (${oneLine(f.slug ?? f.id)})`);
      throw new ToolInputError(
        `company ${oneLine(company)} has no hire custom field ${quoted(wanted)}`,
        `customFieldValues[${i}].field`,
        known.length > 0
          ? `Its hire custom fields: ${known.join(", ")}. Nothing was created.`
          : "It has no hire custom fields; leave customFieldValues out. Nothing was created.",
      );
    }
    const option = (text: string) => {
      const t = text.trim().toLowerCase();
      const hit = field.customFieldOptions.find(
        (o) => o.id === text.trim() || o.value.trim().toLowerCase() === t,
      );
      if (!hit) {
        throw new ToolInputError(
          `${quoted(text)} is not an option of ${quoted(field.title)}`,
          `customFieldValues[${i}].value`,
          `Its options: ${field.customFieldOptions.map((o) => quoted(o.value)).join(", ")}. Nothing was created.`,
        );
      }
      return hit;
    };
    if (field.fieldType === "SINGLE_SELECT") {
      const o = option(value);
      inputs.push({ singleSelect: { id: field.id, value: o.id } });
      shown.push({ fieldId: field.id, title: field.title, value: o.value });
    } else if (field.fieldType === "MULTI_SELECT") {
      const chosen = value
        .split(",")
        .filter((v) => v.trim() !== "")
        .map(option);
      inputs.push({ multiSelect: { id: field.id, values: chosen.map((o) => o.id) } });
      shown.push({
        fieldId: field.id,
        title: field.title,
        value: chosen.map((o) => o.value).join(", "),
      });
    } else if (field.fieldType === "FREE_TEXT") {
      inputs.push({ freeText: { id: field.id, value } });
      shown.push({ fieldId: field.id, title: field.title, value });
    } else {
      throw new ToolInputError(
        `${quoted(field.title)} is a ${oneLine(field.fieldType)} field, which this tool cannot set`,
        `customFieldValues[${i}].field`,
        "Leave it out and set it on the platform. Nothing was created.",
      );
    }
  });
  return { inputs, shown };
}

function matchField(fields: HireCustomFieldDefinition[], wanted: string) {
  const w = wanted.trim().toLowerCase();
  return (
    fields.find((f) => f.id === wanted.trim() || f.slug?.toLowerCase() === w) ??
    fields.find((f) => f.title.trim().toLowerCase() === w)
  );
}

function createdText(
  h: DraftHireOut,
  fields: FieldValueOut[],
  externalIdentifier: string,
  how: { withContact: boolean; foundAfterDrop: boolean; notes: string[] },
): string {
  const worker = how.withContact
    ? `for worker ${quoted(h.worker.name)} (${oneLine(h.worker.id)})`
    : `with no worker yet (shown as ${quoted(h.worker.name)})`;
  const rate = h.rate === null ? "no rate set" : rateText(h.rate, h.currency, h.rateType);
  const terms = [
    `job ${quoted(h.jobName)}`,
    rate,
    period(h.startDate, h.endDate),
    ...(h.purchaseOrderNumber ? [`PO ${quoted(h.purchaseOrderNumber)}`] : []),
  ].join(", ");
  const custom =
    fields.length > 0
      ? ` Custom fields: ${fields.map((f) => `${quoted(f.title)} = ${quoted(f.value)}`).join("; ")}.`
      : "";
  return [
    `Created draft hire ${oneLine(h.id)} (status ${oneLine(h.status)}${how.foundAfterDrop ? "; found after the connection dropped: it was sent once, not again" : ""}) at company ${quoted(h.company.name)} (${oneLine(h.company.id)}) ${worker}: ${terms}.${custom} External id ${quoted(externalIdentifier)}.`,
    ...how.notes,
    "Nothing is sent to anyone until the draft is completed and offered on the platform. To undo it, cancel it with cancel_hire.",
  ].join("\n");
}
