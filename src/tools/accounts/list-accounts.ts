import * as z from "zod";
import { listAccountsQuery } from "../../client/operations/accounts.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { defineTool, readOnlyAnnotations } from "../define-tool.js";
import { requestOptions, upperCaseEnum } from "../format.js";
import { toUser, userOutput } from "../shapes/named.js";

const ACCOUNT_TYPES = ["COMPANY", "ORGANISATION", "RECRUITER", "WORKER", "PARTNER"] as const;
type AccountType = (typeof ACCOUNT_TYPES)[number];

/** How each GraphQL type reads to a person; "Recruiter" is the platform's word for an agency. */
const TYPE_LABEL: Record<AccountType, string> = {
  COMPANY: "company",
  ORGANISATION: "organisation (a group of companies)",
  RECRUITER: "staffing agency",
  WORKER: "worker",
  PARTNER: "partner",
};

const accountOutput = z.object({
  id: z.string(),
  /** COMPANY, ORGANISATION, RECRUITER (staffing agency), WORKER, PARTNER, or the platform's own name. */
  type: z.string(),
  name: z.string(),
  market: z.string().nullable(),
  currency: z.string().nullable(),
});

export const listAccountsTool = defineTool({
  name: "list_accounts",
  title: "List accounts",
  toolset: "accounts",
  instruction:
    "list_accounts says who is signed in and which accounts (companies, organisations, staffing agencies) the token works in; company ids from it are what other tools take as accounts or company.",
  readme: {
    does: '"Which companies can I work in?", "who am I?"',
  },
  description: [
    "Who is signed in, and the accounts you can work in: companies, organisations, staffing agencies, workers.",
    "Use when: which companies can I work in, who am I, or to find a company id.",
    "Do not use for: hires at a company (use search_hires).",
    "Returns: the user, and each account's id, type and name (company ids go in accounts or company).",
  ].join("\n"),
  inputSchema: {
    type: upperCaseEnum(ACCOUNT_TYPES)
      .optional()
      .describe("RECRUITER is a staffing agency. Default: all types."),
  },
  outputSchema: {
    viewer: userOutput,
    accounts: z.array(accountOutput),
    /** Accounts of every type, before the `type` filter. */
    totalAccounts: z.number(),
  },
  annotations: readOnlyAnnotations,
  async handler(args, ctx) {
    const { data } = await ctx.client.run(listAccountsQuery, {}, requestOptions(ctx));
    const all = data.accounts.map((a) => ({
      id: a.id,
      type: a.__typename.toUpperCase(),
      name: a.name,
      // Only companies and organisations have a market, only companies a currency.
      market: "market" in a ? a.market : null,
      currency: "currency" in a ? a.currency : null,
    }));
    const accounts = args.type ? all.filter((a) => a.type === args.type) : all;
    const structured = {
      viewer: toUser(data.viewer),
      accounts,
      totalAccounts: all.length,
    };
    return { structured, text: render(structured, args.type) };
  },
});

type Structured = {
  viewer: { id: string; name: string; email: string };
  accounts: z.infer<typeof accountOutput>[];
  totalAccounts: number;
};

function render(s: Structured, type: AccountType | undefined): string {
  const lines = [
    `Signed in as ${quoted(s.viewer.name)} (email ${quoted(s.viewer.email)}, user ${oneLine(s.viewer.id)}).`,
  ];
  if (s.accounts.length === 0) {
    lines.push(
      type
        ? `No ${TYPE_LABEL[type]} accounts (of ${s.totalAccounts} in all); leave out type to see them all.`
        : "This token can act for no accounts.",
    );
    return lines.join("\n");
  }
  const of = type ? ` ${TYPE_LABEL[type]}` : "";
  lines.push(`${s.accounts.length}${of} account${s.accounts.length === 1 ? "" : "s"}:`);
  for (const a of s.accounts) {
    const label = TYPE_LABEL[a.type as AccountType] ?? oneLine(a.type).toLowerCase();
    const extra = [
      a.market ? `market ${oneLine(a.market)}` : "",
      a.currency ? oneLine(a.currency) : "",
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(`- ${oneLine(a.id)}: ${label} ${quoted(a.name)}${extra ? ` (${extra})` : ""}`);
  }
  if (s.accounts.some((a) => a.type === "COMPANY")) {
    lines.push(
      "Company ids go in `accounts` (search_hires, list_invoices) or `company` (tools that create things).",
    );
  }
  return lines.join("\n");
}
