// Who is asking and what every resolver receives: the sandbox's identities and request context.
import type { GraphQLFieldResolver, GraphQLResolveInfo } from "graphql";
import type { SandboxData } from "./seed/index.js";

export type IdentityKey = "full" | "limited";

export interface Identity {
  key: IdentityKey;
  user: { id: string; name: string; email: string };
  companyIds: ReadonlySet<string>;
  /** Hire.rate and Contract.rate. */
  seesRates: boolean;
  /** terminateHire, cancelHire, createDraftHire. */
  managesHires: boolean;
  /** createJob, updateJob and the job-candidate mutations. */
  managesJobs: boolean;
  /** createTrustedContact, reinviteTrustedContact (inviting people into a talent pool). */
  managesTalent: boolean;
  /** Non-company accounts listed by `accounts`. */
  otherAccounts: boolean;
}

export const IDENTITIES: Record<IdentityKey, Identity> = {
  full: {
    key: "full",
    user: { id: "usr_001", name: "Maja Lindqvist", email: "maja.lindqvist@nordlys.example" },
    companyIds: new Set(["cmp_nordlys", "cmp_harbor", "cmp_castell"]),
    seesRates: true,
    managesHires: true,
    managesJobs: true,
    managesTalent: true,
    otherAccounts: true,
  },
  limited: {
    key: "limited",
    user: { id: "usr_002", name: "Oskar Berg", email: "oskar.berg@nordlys.example" },
    companyIds: new Set(["cmp_nordlys"]),
    seesRates: false,
    managesHires: false,
    managesJobs: false,
    managesTalent: false,
    otherAccounts: false,
  },
};

/** The webhook event types the sandbox sends (names of the real schema's WebhookEventType). */
export type WebhookEventType =
  | "CONTRACT_ACCEPTED"
  | "HIRE_CANCELLED"
  | "HIRE_ENDED"
  | "HIRE_TERMINATED";

/** What a change tells the platform's webhooks (domains/webhooks/delivery.ts sends them). */
export interface PlatformEvents {
  /** A hire changed state, or a contract of it was accepted: sent to each subscribed webhook. */
  hire(type: WebhookEventType, hireId: string, contractId?: string): void;
  /** retryWebhookEvent: one more attempt of that delivery, now. */
  retry(webhookEventId: string): void;
}

export interface RequestContext {
  identity: Identity;
  data: SandboxData;
  baseUrl: string;
  maxRegistrationsPerCall: number;
  events: PlatformEvents;
}

// The parent is left open so that each resolver names the record it is handed (`h: HireRecord`).
// The arguments are not: a resolver reads them only through withArgs, as the schema types them.
type Resolver = GraphQLFieldResolver<AnyRecord, RequestContext, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: resolver parents are our own records, typed per map
export type AnyRecord = any;

/**
 * A resolver that reads its arguments as the sandbox's schema types them (the generated
 * `Query…Args` and `Mutation…Args` of resolver-types.generated.ts). The executor has coerced and
 * checked the arguments against that schema before any resolver runs; this is where that is said.
 */
export function withArgs<A>(
  resolve: (parent: AnyRecord, args: A, ctx: RequestContext, info: GraphQLResolveInfo) => unknown,
): Resolver {
  return resolve as Resolver;
}

/** Resolvers by type name, then field name. */
export type ResolverMap = Record<string, Record<string, Resolver>>;
