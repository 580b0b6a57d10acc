// workforce://changes: the caller's feed of what the platform's webhooks reported, the same as
// list_changes shows (only companies the caller's sign-in can read). 2025-11-25 clients subscribe
// with resources/subscribe and get notifications/resources/updated on this connection for each new
// event of a company they can read. 2026-07-28 clients listen with subscriptions/listen: the HTTP
// server publishes every new event's update through createMcpHandler's notifier (src/transports/
// http.ts), and the feed is filtered for the person when they read it. A local server with
// WORKFORCE_TEAM_URL reads the team server's feed, filtered there, and asks it again now and then.
import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import type { ChangesPage, FeedDeps } from "../client/changes-feed.js";
import { quoted } from "../client/platform-text.js";
import { CHANGES_URI } from "../client/schema/uris.js";
import type { TeamChanges } from "../client/team-changes.js";
import type { PlatformClient } from "../client/types.js";
import type { Logger } from "../logger.js";
import type { StateStore } from "../state/store.js";
import type { ReceivedWebhookEvent, WebhookEventStore } from "../state/webhook-events.js";

// The feed's code loads with the first read or subscription, not when the server starts.
const feed = () => import("../client/changes-feed.js");

/** The changes a read of the resource shows. */
const SHOWN = 20;
/** How long a subscribed connection trusts the accounts it read before reading them again. */
const ACCOUNTS_FRESH_MS = 5 * 60_000;

export interface ChangesResourceDeps {
  client: PlatformClient;
  store: StateStore;
  events: WebhookEventStore | undefined;
  /** A local server's view of the team server's events, filtered there for this person. */
  team?: TeamChanges;
  logger: Logger;
  now: () => number;
  /**
   * Announce every new event this person may see from the start, without resources/subscribe
   * (2026-07-28 over stdio, where the SDK forwards only what a listen stream asked for).
   */
  announceAll?: boolean;
}

export const CHANGES_RESOURCE = {
  uri: CHANGES_URI,
  name: "changes",
  title: "What changed",
  description:
    "What the platform's webhooks reported, newest first, for the companies you can read: contracts accepted, hires terminated, cancelled or ended. Subscribe to hear of each new one; list_changes filters and pages.",
  mimeType: "text/plain",
};

function feedDeps(deps: ChangesResourceDeps, events: WebhookEventStore, signal?: AbortSignal) {
  return {
    client: deps.client,
    store: deps.store,
    events,
    options: { signal },
  } satisfies FeedDeps;
}

/** The feed's text: the newest changes this caller may see. */
export async function readChanges(deps: ChangesResourceDeps, signal?: AbortSignal) {
  const { changeLine, NO_RECEIVER, readableAccounts, visibleChanges } = await feed();
  let found: ChangesPage;
  if (deps.team) {
    const answer = await deps.team.read({}, { offset: 0, limit: SHOWN }, signal);
    if (!answer.ok) throw new ProtocolError(ProtocolErrorCode.InternalError, answer.message);
    found = answer.page;
  } else {
    if (!deps.events) throw new ProtocolError(ProtocolErrorCode.InternalError, NO_RECEIVER);
    const from = feedDeps(deps, deps.events, signal);
    const accounts = await readableAccounts(deps.client, from.options);
    found = await visibleChanges(from, accounts, {}, { offset: 0, limit: SHOWN });
  }
  if (found.total === 0) {
    return "No changes received for the companies you can read. New ones appear here as the platform reports them.";
  }
  const more =
    found.total > found.changes.length
      ? ` (the newest ${found.changes.length} of ${found.total}; list_changes pages and filters)`
      : "";
  return [`Changes, newest first${more}:`, ...found.changes.map(changeLine)].join("\n");
}

/**
 * resources/subscribe and resources/unsubscribe for 2025-11-25 connections: while this connection
 * is subscribed to the feed, each new event of a company its sign-in can read is announced to it.
 * Returns what stops listening (the server's close).
 */
export function serveChangeSubscriptions(
  server: Server,
  deps: ChangesResourceDeps,
): () => Promise<void> {
  let stop: Promise<() => Promise<void>> | undefined;
  let accounts: { ids: Set<string>; at: number } | undefined;
  let closed = false;

  const readable = async () => {
    if (!accounts || deps.now() - accounts.at > ACCOUNTS_FRESH_MS) {
      accounts = { ids: await (await feed()).readableAccounts(deps.client), at: deps.now() };
    }
    return accounts.ids;
  };
  const announce = async (event: ReceivedWebhookEvent) => {
    try {
      const { maySee } = await feed();
      if (!maySee(await readable(), event)) return;
      await server.sendResourceUpdated({ uri: CHANGES_URI });
    } catch (error) {
      // A notification is a hint; the client still reads the feed when it looks.
      deps.logger.debug("could not announce a change to a subscribed client", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const unsubscribe = async () => {
    const stopping = stop;
    stop = undefined;
    if (stopping) await (await stopping.catch(() => async () => {}))();
  };

  const events = deps.events;
  const team = deps.team;
  // The team server's events are this person's already; it is asked again every little while.
  const listen = team
    ? async () => {
        const stopWatching = team.watch(
          () =>
            void server.sendResourceUpdated({ uri: CHANGES_URI }).catch(() => {
              // A notification is a hint; the client still reads the feed when it looks.
            }),
          (message) => deps.logger.debug("could not ask the team server for changes", { message }),
        );
        return async () => stopWatching();
      }
    : events
      ? () => events.listen((event) => void announce(event))
      : undefined;
  if (deps.announceAll && listen) {
    stop = listen();
    // A store that cannot listen leaves the feed readable; the failure is the log's.
    stop.catch((error: unknown) => {
      stop = undefined;
      deps.logger.warning("could not listen for the platform's events", {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  server.setRequestHandler("resources/subscribe", async (request) => {
    const { uri } = request.params;
    if (uri !== CHANGES_URI) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Only ${CHANGES_URI} can be subscribed to, not ${quoted(uri)}: the other resources change only with the server.`,
      );
    }
    if (!listen) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, (await feed()).NO_RECEIVER);
    }
    // Whose companies: read now, so that a credential that cannot read any is told at once.
    if (!team) await readable();
    if (!stop && !closed) {
      stop = listen();
      await stop;
    }
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async () => {
    await unsubscribe();
    return {};
  });
  return async () => {
    closed = true;
    await unsubscribe();
  };
}
