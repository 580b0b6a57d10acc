import * as z from "zod";
import type { SearchTalentPoolQueryVariables } from "../../client/operation-types.generated.js";
import {
  MAX_SKILL_LOOKUPS,
  type SkillRef,
  searchTalentPoolQuery,
  skillAlias,
  skillLookupQuery,
  skillVariable,
} from "../../client/operations/talent.js";
import { clampPage, clampPageSize } from "../../client/pagination.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import type { RequestOptions } from "../../client/types.js";
import {
  defineTool,
  readOnlyAnnotations,
  shown,
  type ToolContext,
  ToolInputError,
} from "../define-tool.js";
import {
  hiddenFields,
  hiddenLine,
  pageArgs,
  pageOf,
  pageOutput,
  requestOptions,
  upperCaseEnum,
} from "../format.js";
import {
  type TalentContactOut,
  talentContactOutput,
  toTalentContact,
} from "../shapes/talent-contact.js";

const CONTACT_STATUSES = ["INVITED", "ACTIVE", "APPLIED", "DECLINED", "BLOCKED"] as const;
const HIRE_STATUSES = [
  "CURRENTLY_HIRED",
  "NOT_CURRENTLY_HIRED",
  "PREVIOUSLY_HIRED",
  "NEVER_HIRED",
] as const;

const skillsOutput = z.object({
  matched: z.array(z.object({ asked: z.string(), id: z.string(), name: z.string() })),
  unmatched: z.array(z.object({ asked: z.string(), similar: z.array(z.string()) })),
});
type SkillsOut = z.infer<typeof skillsOutput>;

export const searchTalentPoolTool = defineTool({
  name: "search_talent_pool",
  title: "Search the talent pool",
  toolset: "talent",
  instruction:
    "search_talent_pool finds trusted contacts (the talent pool: workers a company can hire directly) by skill, country, status and whether they were hired.",
  readme: {
    does: '"React people in Denmark we have not hired yet", with when each was invited',
  },
  description: [
    "Search the talent pool: the trusted contacts a company can hire directly, with skills, status, invitation date and hire history.",
    "Use when: React people in Denmark we have not hired yet, who in our pool knows Python.",
    "Do not use for: job candidates (use list_jobs). Unknown skill names are said plainly. Paged.",
    'Example: {"skills": ["React"], "countries": ["DK"], "hireStatus": "NEVER_HIRED"}',
  ].join("\n"),
  inputSchema: {
    search: z.string().min(1).optional().describe("Text in the name or email."),
    skills: z
      .array(z.string().trim().min(1))
      .max(MAX_SKILL_LOOKUPS)
      .optional()
      .describe("Skill names; contacts have all of them."),
    countries: z.array(z.string()).optional().describe("Where they live: ISO codes, e.g. DK."),
    statuses: z
      .array(upperCaseEnum(CONTACT_STATUSES))
      .optional()
      .describe("INVITED means not answered yet."),
    hireStatus: upperCaseEnum(HIRE_STATUSES)
      .optional()
      .describe("By their company: hired now, not now, ever, never."),
    ...pageArgs,
  },
  outputSchema: {
    contacts: z.array(talentContactOutput),
    skills: skillsOutput,
    /** Null when no search was made (a skill name matched nothing). */
    page: pageOutput.nullable(),
    hiddenFields: z.array(z.string()),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const countries = args.countries?.map((c) => c.trim().toUpperCase());
    const bad = countries?.find((c) => !/^[A-Z]{2}$/.test(c));
    if (bad !== undefined) {
      throw new ToolInputError(
        `${quoted(shown(bad))} is not a two-letter ISO country code`,
        "countries",
        'Use codes such as "DK", "SE", "DE", "US" or "GB".',
      );
    }
    const options = requestOptions(ctx);
    const skills = await resolveSkills(args.skills ?? [], ctx, options);
    if (skills.unmatched.length > 0) {
      return {
        structured: { contacts: [], skills, page: null, hiddenFields: [] },
        text: unmatchedText(skills),
      };
    }

    const variables: SearchTalentPoolQueryVariables = {
      search: args.search,
      skills: skills.matched.length > 0 ? [...new Set(skills.matched.map((s) => s.id))] : undefined,
      countries,
      statuses: args.statuses,
      first: clampPageSize(args.first),
      page: clampPage(args.page),
    };
    // Without accounts the filters ask about each contact's own company.
    switch (args.hireStatus) {
      case "CURRENTLY_HIRED":
      case "NOT_CURRENTLY_HIRED":
        variables.hireStatus = { status: args.hireStatus };
        break;
      case "PREVIOUSLY_HIRED":
        variables.hireHistory = { status: "PREVIOUSLY_HIRED" };
        break;
      case "NEVER_HIRED":
        variables.hireHistory = { status: "NOT_PREVIOUSLY_HIRED" };
        break;
    }
    const { data, restricted } = await ctx.client.run(searchTalentPoolQuery, variables, options);
    const info = pageOf(data.trustedContacts.paginatorInfo);
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
    const contacts = data.trustedContacts.data.map((c) => toTalentContact(c, today));
    const hidden = hiddenFields(restricted);
    const matched =
      skills.matched.length > 0
        ? `Skills: ${skills.matched.map((s) => `${quoted(s.name)} (${oneLine(s.id)})`).join(", ")}.`
        : undefined;
    const text = [
      `Talent pool: ${info.summary}`,
      matched,
      ...contacts.map(renderContact),
      hiddenLine(hidden),
    ]
      .filter(Boolean)
      .join("\n");
    return {
      structured: { contacts, skills, page: info, hiddenFields: hidden },
      text,
    };
  },
});

const normalise = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** Skill names to ids in one request; only an exact name (any letter case) counts as a match. */
async function resolveSkills(
  names: string[],
  ctx: ToolContext,
  options: RequestOptions,
): Promise<SkillsOut> {
  const asked = [...new Map(names.map((n) => [normalise(n), n.trim()])).values()];
  if (asked.length === 0) return { matched: [], unmatched: [] };
  const variables = Object.fromEntries(asked.map((name, i) => [skillVariable(i), name]));
  const { data } = await ctx.client.run(skillLookupQuery(asked.length), variables, options);
  const out: SkillsOut = { matched: [], unmatched: [] };
  asked.forEach((name, i) => {
    const found: SkillRef[] = data[skillAlias(i)]?.data ?? [];
    const exact = found.find((s) => normalise(s.name) === normalise(name));
    if (exact) out.matched.push({ asked: name, id: exact.id, name: exact.name });
    else out.unmatched.push({ asked: name, similar: found.slice(0, 5).map((s) => s.name) });
  });
  return out;
}

function unmatchedText(skills: SkillsOut): string {
  const lines = skills.unmatched.map((u) => {
    const similar =
      u.similar.length > 0
        ? `; skills with similar names: ${u.similar.map((s) => quoted(s)).join(", ")}`
        : "; no skill name contains it either";
    return `- No skill on the platform is named ${quoted(u.asked)}${similar}.`;
  });
  const found =
    skills.matched.length > 0
      ? `Found: ${skills.matched.map((s) => quoted(s.name)).join(", ")}.`
      : undefined;
  return [
    "No search was made: a skill name you gave matches no skill, so no contact can have it.",
    ...lines,
    found,
    "Use an exact skill name from above, or search without that skill.",
  ]
    .filter(Boolean)
    .join("\n");
}

const HIRE_WORDS: Record<TalentContactOut["hireStatus"], string> = {
  CURRENTLY_HIRED: "hired now",
  PREVIOUSLY_HIRED: "hired before",
  NEVER_HIRED: "never hired",
};

// Names, emails, cities and skill names are quoted; ids, codes and statuses kept to one line.
function renderContact(c: TalentContactOut): string {
  const email = c.worker.email ? ` (email ${quoted(c.worker.email)})` : "";
  const place = c.country
    ? `${oneLine(c.country)}${c.city ? ` ${quoted(c.city)}` : ""}`
    : "country unknown";
  const hires =
    c.hires.length > 0
      ? ` (${c.hires.map((h) => `${oneLine(h.id)} ${oneLine(h.status)}`).join(", ")})`
      : "";
  const skills =
    c.skills.length > 0 ? `skills ${c.skills.map((s) => quoted(s)).join(", ")}` : "no skills";
  const days = c.daysSinceInvited;
  const ago = days === 0 ? "today" : days === 1 ? "1 day ago" : `${days} days ago`;
  return `- ${oneLine(c.id)} ${quoted(c.worker.name)}${email}, ${place}; ${oneLine(c.status)}, invited ${oneLine(c.invitedAt)} (${ago}); ${HIRE_WORDS[c.hireStatus]}${hires}; ${skills}; pool of ${quoted(c.company.name)} (${oneLine(c.company.id)})`;
}
