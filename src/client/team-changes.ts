// A local server's view of the team's live changes (WORKFORCE_TEAM_URL): list_changes and
// workforce://changes read the team server's GET /changes with this person's own platform
// credential, so that only the events this person may read reach this machine. The team's Redis,
// which holds every company's raw events, is never needed here. New events are noticed by asking
// again every little while.
import type { ChangesPage, ChangesQuery } from "./changes-feed.js";
import { httpFetch } from "./http-fetch.js";
import type { TokenSource } from "./types.js";

/** Where the team server answers; the same path on both sides. */
export const TEAM_CHANGES_PATH = "/changes";
/** The header that carries the person's platform credential to the team server. */
export const TEAM_TOKEN_HEADER = "x-workforce-token";
/** How often a subscribed connection asks the team server whether something new arrived. */
const TEAM_POLL_MS = 30_000;
/** The largest answer read: a page holds at most 50 changes of a few hundred bytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** What the team server answers: the page, and how long it keeps events. */
interface TeamPage extends ChangesPage {
  retentionDays: number;
}

type TeamRead = { ok: true; page: TeamPage } | { ok: false; message: string };

export interface TeamChanges {
  /** The changes this person may see, as the team server filters them. */
  read(
    query: ChangesQuery,
    page: { offset: number; limit: number },
    signal?: AbortSignal,
  ): Promise<TeamRead>;
  /**
   * Calls `listener` whenever the newest change this person may see is a new one; returns what
   * stops asking.
   */
  watch(listener: () => void, onError: (message: string) => void): () => void;
}

export interface TeamChangesOptions {
  /** The team server's base address (config.teamUrl). */
  url: string;
  /** This person's own platform credential. */
  token: string | TokenSource;
  timeoutMs: number;
  pollMs?: number;
  /** Runs `fn` now and every `ms` after; returns what stops it (tests run it by hand). */
  every?: (fn: () => Promise<void>, ms: number) => () => void;
}

const everyByTimer = (fn: () => Promise<void>, ms: number) => {
  void fn();
  const timer = setInterval(() => void fn(), ms);
  // Asking again is no reason to keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
};

export function createTeamChanges(options: TeamChangesOptions): TeamChanges {
  const where = `the team server at ${options.url}`;

  async function read(
    query: ChangesQuery,
    page: { offset: number; limit: number },
    signal?: AbortSignal,
  ): Promise<TeamRead> {
    const params = new URLSearchParams({ offset: String(page.offset), limit: String(page.limit) });
    if (query.since !== undefined) params.set("since", String(query.since));
    if (query.hireId !== undefined) params.set("hireId", query.hireId);
    if (query.companyId !== undefined) params.set("companyId", query.companyId);
    if (query.event !== undefined) params.set("event", query.event);
    let token: string;
    try {
      token = typeof options.token === "string" ? options.token : await options.token.current();
    } catch (error) {
      return {
        ok: false,
        message: `Your platform credential could not be used for ${where}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    let response: Response;
    try {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      response = await httpFetch(
        `${options.url}${TEAM_CHANGES_PATH}?${params}`,
        {
          headers: { [TEAM_TOKEN_HEADER]: token, accept: "application/json" },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        },
        { maxResponseBytes: MAX_ANSWER_BYTES, connectTimeoutMs: 5_000 },
      );
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return {
        ok: false,
        message: `Could not reach ${where} for its changes (${typeof code === "string" ? code : error instanceof Error ? error.message : "no answer"}). Try again once it answers.`,
      };
    }
    const body = (await response.json().catch(() => undefined)) as
      | (Partial<TeamPage> & { error_description?: unknown })
      | undefined;
    if (response.ok && body && Array.isArray(body.changes)) {
      return {
        ok: true,
        page: {
          changes: body.changes,
          total: Number(body.total ?? body.changes.length),
          capped: body.capped === true,
          retentionDays: Number(body.retentionDays ?? 0),
        },
      };
    }
    const said =
      typeof body?.error_description === "string" ? ` It said: ${body.error_description}` : "";
    if (response.status === 401) {
      return {
        ok: false,
        message: `${capital(where)} did not accept your platform credential for its changes (a team server that signs people in with --auth oauth accepts it only with --token-passthrough).${said}`,
      };
    }
    if (response.status === 429) {
      const after = response.headers.get("retry-after");
      return {
        ok: false,
        message: `${capital(where)} limits how often one person reads its changes; try again${after ? ` in ${after} seconds` : " shortly"}.`,
      };
    }
    if (response.status === 404) {
      return {
        ok: false,
        message: `${capital(where)} serves no changes: it receives no webhook events, or it is not a workforce-mcp team server.${said}`,
      };
    }
    return {
      ok: false,
      message: `${capital(where)} answered HTTP ${response.status} for its changes.${said}`,
    };
  }

  function watch(listener: () => void, onError: (message: string) => void): () => void {
    // The newest change seen; the first answer only sets it.
    let newest: string | undefined;
    let first = true;
    let asking = false;
    const ask = async () => {
      if (asking) return;
      asking = true;
      try {
        const answer = await read({}, { offset: 0, limit: 1 });
        if (!answer.ok) return onError(answer.message);
        const top = answer.page.changes[0]?.eventId;
        const changed = top !== undefined && top !== newest;
        newest = top ?? newest;
        if (changed && !first) listener();
        first = false;
      } finally {
        asking = false;
      }
    };
    return (options.every ?? everyByTimer)(ask, options.pollMs ?? TEAM_POLL_MS);
  }

  return { read, watch };
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
