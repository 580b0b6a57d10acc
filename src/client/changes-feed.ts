// What the platform's webhook events say changed, as one person may see it: list_changes and the
// workforce://changes resource read it. The events are hints (src/state/webhook-events.ts); each
// is shown with the hire it names, read through the API once per event and kept beside it in the
// state store, so that a list does not fetch again. An event is the company's whose webhook secret
// signed it (src/transports/webhook-receiver.ts); a person sees it only when their own credential
// can read that company, and the hire's details only when the platform says the hire is that
// company's: details of another company's hire, named in an event, are neither kept nor shown.

import type { StateStore } from "../state/store.js";
import {
  field,
  type ReceivedWebhookEvent,
  type WebhookEventStore,
} from "../state/webhook-events.js";
import { AuthorizationError, FieldRestrictedError, ValidationError } from "./errors.js";
import { listAccountsQuery } from "./operations/accounts.js";
import { hireForChangeQuery } from "./operations/changes.js";
import { oneLine, quoted } from "./platform-text.js";
import type { PlatformClient, RequestOptions } from "./types.js";

/** What list_changes and workforce://changes answer where nothing receives the events. */
export const NO_RECEIVER =
  "This server receives no webhook events, so it cannot say what changed. The platform's events are received by the team's HTTP server (workforce-mcp --http) with WORKFORCE_WEBHOOK_SECRETS set, once a webhook on the platform points at https://<that server>/webhooks/platform with the same secret. A local server (stdio) shows the events of that server that its person may read when WORKFORCE_TEAM_URL names that server. Until then, search_hires and get_hire show the hires as they are now.";

/** The newest events looked at per list; older ones need a later `since`. */
export const CHANGES_SCAN_LIMIT = 500;

/** Hires read through the API at most per list, so that one list cannot spend the rate budget. */
const LOOKUPS_PER_LIST = 10;

export interface Change {
  eventId: string;
  /** The payload's event name, e.g. `contractAccepted`. */
  event: string;
  /** When this server received it (ISO 8601). */
  receivedAt: string;
  hireId: string | null;
  hireNumber: string | null;
  /** The hire's status the event reports (as webhooks write it, lower case). */
  newStatus: string | null;
  worker: { id: string | null; name: string | null } | null;
  company: { id: string; name: string | null };
  contract: { id: string | null; jobName: string | null } | null;
  /** "platform": the hire was read through the API; "event": only what the event carried. */
  detailsFrom: "platform" | "event";
}

export interface ChangesPage {
  changes: Change[];
  /** Visible events matching the query (among the newest CHANGES_SCAN_LIMIT looked at). */
  total: number;
  /** True when CHANGES_SCAN_LIMIT events were looked at: older ones were not. */
  capped: boolean;
}

export interface ChangesQuery {
  since?: number;
  hireId?: string;
  companyId?: string;
  event?: string;
}

export interface FeedDeps {
  client: PlatformClient;
  store: StateStore;
  events: WebhookEventStore;
  options?: RequestOptions;
}

/** What the API said of the event's hire, kept under the event's id. */
interface Details {
  hireNumber: string;
  workerId: string;
  workerName: string;
  companyId: string;
  companyName: string;
  contractId: string | null;
  jobName: string | null;
}

/** Kept instead of the details when the hire is not the event's company's: nothing of it is kept. */
interface ForeignHire {
  foreignHire: true;
}

const detailsKey = (eventId: string) => `webhook-change:${eventId}`;

/** The ids of every account the credential can read (companies, organisations, agencies). */
export async function readableAccounts(
  client: PlatformClient,
  options?: RequestOptions,
): Promise<Set<string>> {
  const { data } = await client.run(listAccountsQuery, {}, options);
  return new Set(data.accounts.map((a) => a.id));
}

function payloadFacts(event: ReceivedWebhookEvent) {
  const data = field(event.payload, "data");
  const contract = field(data, "contract");
  const hire = field(data, "hire");
  const worker = field(data, "worker");
  const company = field(data, "company");
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    hireId:
      text(field(contract, "hireId")) ?? text(field(hire, "id")) ?? text(field(data, "hireId")),
    status: text(field(contract, "hireStatus")) ?? text(field(hire, "status")),
    contractId: text(field(contract, "id")),
    worker: worker ? { id: text(field(worker, "id")), name: text(field(worker, "name")) } : null,
    companyName: text(field(company, "name")),
  };
}

/**
 * The details kept beside the event, or read now (once) when `lookups` allows; undefined unless
 * the platform says the hire is the event's company's.
 */
async function detailsOf(
  deps: FeedDeps,
  event: ReceivedWebhookEvent,
  lookups: { left: number },
): Promise<Details | undefined> {
  const kept = await deps.store.get(detailsKey(event.id));
  if (kept !== undefined) {
    const details = JSON.parse(kept) as Details | ForeignHire;
    // OWASP API1 (BOLA): kept details are the event's company's hire, or not shown at all.
    return "companyId" in details && details.companyId === event.companyId ? details : undefined;
  }
  const { hireId } = payloadFacts(event);
  if (hireId === null || lookups.left <= 0) return undefined;
  lookups.left--;
  let hire: Awaited<ReturnType<typeof readHire>>;
  try {
    hire = await readHire(deps, hireId);
  } catch (error) {
    // Not this person's to read: another person may, so nothing is kept.
    if (
      error instanceof AuthorizationError ||
      error instanceof ValidationError ||
      error instanceof FieldRestrictedError
    ) {
      return undefined;
    }
    throw error;
  }
  if (!hire) return undefined;
  // Kept as long as the event: whoever lists it next reads it from here.
  const keep = (value: Details | ForeignHire) =>
    deps.store.set(detailsKey(event.id), JSON.stringify(value), deps.events.maxAgeMs);
  if (hire.company.id !== event.companyId) {
    // Another company's hire: this reader may read it, the event's other readers may not.
    await keep({ foreignHire: true });
    return undefined;
  }
  const details: Details = {
    hireNumber: hire.number,
    workerId: hire.worker.id,
    workerName: hire.worker.name,
    companyId: hire.company.id,
    companyName: hire.company.name,
    contractId: hire.latestContract.id,
    jobName: hire.latestContract.jobName,
  };
  await keep(details);
  return details;
}

async function readHire(deps: FeedDeps, hireId: string) {
  const { data } = await deps.client.run(hireForChangeQuery, { id: hireId }, deps.options);
  return data.hire;
}

/**
 * The events matching `query` of the companies among `accounts`, newest first, `offset` and
 * `limit` of them with their hire's details.
 */
export async function visibleChanges(
  deps: FeedDeps,
  accounts: ReadonlySet<string>,
  query: ChangesQuery,
  page: { offset: number; limit: number },
): Promise<ChangesPage> {
  const { companyId, ...filters } = query;
  const companies = [...accounts].filter((id) => companyId === undefined || id === companyId);
  const found = await deps.events.list({ ...filters, companies, limit: CHANGES_SCAN_LIMIT });
  const lookups = { left: LOOKUPS_PER_LIST };
  const changes: Change[] = [];
  for (const event of found.slice(page.offset, page.offset + page.limit)) {
    changes.push(changeOf(event, await detailsOf(deps, event, lookups)));
  }
  return { changes, total: found.length, capped: found.length >= CHANGES_SCAN_LIMIT };
}

/** Whether a person who reads `accounts` may see the event (for notifications). */
export function maySee(accounts: ReadonlySet<string>, event: ReceivedWebhookEvent): boolean {
  return accounts.has(event.companyId);
}

function changeOf(event: ReceivedWebhookEvent, details: Details | undefined): Change {
  const facts = payloadFacts(event);
  const companyId = event.companyId;
  return {
    eventId: event.id,
    event: event.event,
    receivedAt: event.receivedAt,
    hireId: facts.hireId,
    hireNumber: details?.hireNumber ?? null,
    newStatus: facts.status,
    worker:
      details !== undefined ? { id: details.workerId, name: details.workerName } : facts.worker,
    company: { id: companyId, name: details?.companyName ?? facts.companyName },
    contract:
      facts.contractId !== null || details !== undefined
        ? {
            id: facts.contractId ?? details?.contractId ?? null,
            // The job of the hire's latest contract: the event's own when they are the same one.
            jobName:
              details && (facts.contractId === null || facts.contractId === details.contractId)
                ? details.jobName
                : null,
          }
        : null,
    detailsFrom: details ? "platform" : "event",
  };
}

/** One line per change: ids and statuses on one line, the platform's names quoted. */
export function changeLine(c: Change): string {
  const hire =
    c.hireId === null
      ? "no hire named"
      : `hire ${oneLine(c.hireId)}${c.hireNumber ? ` (no. ${oneLine(c.hireNumber)})` : ""}`;
  const worker = c.worker?.name
    ? ` ${quoted(c.worker.name)}${c.worker.id ? ` (worker ${oneLine(c.worker.id)})` : ""}`
    : "";
  const company = ` at ${c.company.name ? `${quoted(c.company.name)} (${oneLine(c.company.id)})` : `company ${oneLine(c.company.id)}`}`;
  const contract = c.contract?.id
    ? `; contract ${oneLine(c.contract.id)}${c.contract.jobName ? ` job ${quoted(c.contract.jobName)}` : ""}`
    : "";
  const status = c.newStatus ? `; hire status now ${oneLine(c.newStatus)}` : "";
  const from =
    c.detailsFrom === "event" ? " (as the event says; no details from the platform)" : "";
  return `- ${oneLine(c.receivedAt)} ${oneLine(c.event)}: ${hire}${worker}${company}${contract}${status}${from}`;
}
