import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { WorkforceServer } from "../server.js";

/** One live MCP session over HTTP. */
export interface HttpSession {
  id: string;
  transport: StreamableHTTPServerTransport;
  workforce: WorkforceServer;
  /** SHA-256 of the bearer the session was opened with (per-client token mode only). */
  bearerDigest?: Buffer;
}

interface Entry {
  session: HttpSession;
  lastActivity: number;
  /** Requests in flight plus open SSE streams; a busy session is never idle. */
  active: number;
}

export interface SessionRegistryOptions {
  maxSessions: number;
  idleMs: number;
  /** Milliseconds clock; tests pass their own. */
  now?: () => number;
  /** How often idle sessions are swept; defaults from idleMs. */
  sweepIntervalMs?: number;
  /** Called after a session was reclaimed for being idle. */
  onReclaim?: (session: HttpSession, idleMs: number) => void;
}

/** A place for one session being initialized, so concurrent initializes cannot overshoot the cap. */
export interface Reservation {
  commit(session: HttpSession): void;
  release(): void;
}

export type ReserveResult =
  | { ok: true; reservation: Reservation }
  | { ok: false; retryAfterSeconds: number };

/** Live HTTP sessions, with last-activity tracking, idle expiry and a cap. */
export class SessionRegistry {
  private readonly entries = new Map<string, Entry>();
  private pending = 0;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    const interval =
      options.sweepIntervalMs ?? Math.min(60_000, Math.max(50, Math.floor(options.idleMs / 2)));
    this.timer = setInterval(() => this.sweep(), interval);
    // The sweep must never keep the process alive on its own.
    this.timer.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: string): HttpSession | undefined {
    return this.entries.get(id)?.session;
  }

  /** Marks a request (or SSE stream) of the session as started; call the result when it ends. */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (!entry) return () => {};
    entry.active++;
    entry.lastActivity = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.active--;
      entry.lastActivity = this.now();
    };
  }

  /** A place for a new session, or how long to wait when the cap is reached. */
  reserve(): ReserveResult {
    if (this.entries.size + this.pending >= this.options.maxSessions) this.sweep();
    if (this.entries.size + this.pending >= this.options.maxSessions) {
      return { ok: false, retryAfterSeconds: this.retryAfterSeconds() };
    }
    this.pending++;
    let open = true;
    const done = () => {
      if (!open) return false;
      open = false;
      this.pending--;
      return true;
    };
    return {
      ok: true,
      reservation: {
        commit: (session) => {
          if (!done()) return;
          this.entries.set(session.id, { session, lastActivity: this.now(), active: 0 });
        },
        release: () => {
          done();
        },
      },
    };
  }

  /** Forgets a session (its transport closed); does not close it. */
  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Closes every session idle for idleMs or longer, oldest-idle first; returns how many. */
  sweep(): number {
    const now = this.now();
    const expired = [...this.entries.values()]
      .filter((e) => e.active === 0 && now - e.lastActivity >= this.options.idleMs)
      .sort((a, b) => a.lastActivity - b.lastActivity);
    for (const entry of expired) {
      this.entries.delete(entry.session.id);
      this.options.onReclaim?.(entry.session, now - entry.lastActivity);
      void closeSession(entry.session);
    }
    return expired.length;
  }

  /** Closes every session and stops the sweep. */
  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    const sessions = [...this.entries.values()].map((e) => e.session);
    this.entries.clear();
    await Promise.allSettled(sessions.map(closeSession));
  }

  /** Seconds until the oldest idle session expires; the whole idle time when none is idle. */
  private retryAfterSeconds(): number {
    const now = this.now();
    let soonest = this.options.idleMs;
    for (const e of this.entries.values()) {
      if (e.active === 0) soonest = Math.min(soonest, e.lastActivity + this.options.idleMs - now);
    }
    return Math.max(1, Math.ceil(soonest / 1000));
  }
}

async function closeSession(session: HttpSession): Promise<void> {
  // Closing the transport ends its streams; closing the server frees the session's memory.
  await Promise.allSettled([session.transport.close(), session.workforce.close()]);
}
