import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { WorkforceServer } from "../server.js";

/** One live MCP session over HTTP. */
export interface HttpSession {
  id: string;
  transport: NodeStreamableHTTPServerTransport;
  workforce: WorkforceServer;
  /** SHA-256 of the bearer the session was opened with (per-client token mode only). */
  bearerDigest?: Buffer;
}

interface Entry {
  session: HttpSession;
  /** Who opened it: the platform identity, or the client's address group (see http.ts). */
  owner: string;
  /** The last request's start or end, or the last message its event stream carried. */
  lastActivity: number;
  /** Requests in flight: a session with one is busy, never ended to make room. */
  active: number;
  /** Open GET event streams: they keep a session only while they carry something. */
  streams: number;
}

/** Why an idle session was ended early: the server's cap, or its owner's share of it. */
export type EvictionReason = "cap" | "share";

export interface SessionRegistryOptions {
  maxSessions: number;
  /** The most sessions one owner may hold; a quarter of maxSessions (at least one) by default. */
  maxPerOwner?: number;
  idleMs: number;
  /**
   * How long an open GET event stream may carry nothing before its session counts as silent and
   * may be ended to make room; the lesser of idleMs and a minute by default.
   */
  silentMs?: number;
  /** Milliseconds clock; tests pass their own. */
  now?: () => number;
  /** How often idle sessions are swept; defaults from idleMs. */
  sweepIntervalMs?: number;
  /** Called after a session was reclaimed for being idle. */
  onReclaim?: (session: HttpSession, idleMs: number) => void;
  /** Called after an idle session was ended to make room for a new one. */
  onEvict?: (session: HttpSession, reason: EvictionReason, idleMs: number) => void;
}

/** A place for one session being initialized, so concurrent initializes cannot overshoot the cap. */
interface Reservation {
  commit(session: HttpSession): void;
  release(): void;
}

/** When every session that could make room is busy: try again soon, one will be idle by then. */
export const BUSY_RETRY_SECONDS = 5;

export type ReserveResult =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: EvictionReason; retryAfterSeconds: number };

/**
 * Live HTTP sessions, with last-activity tracking, idle expiry and a cap. At the cap the least
 * recently used session without a request in flight, and whose event stream (if open) has been
 * silent a while, is ended to make room (its client gets 404 and initializes again, as the MCP spec
 * has it), so a flood of sessions or of silent streams cannot lock others out; one owner (a person,
 * or an address group with the server's own token) may hold only a share of the cap, and over it
 * its own least recently used such session is ended. An open stream that carries nothing does not
 * keep a session from expiring. Only when every candidate is busy is a new session refused.
 */
export class SessionRegistry {
  /** In order of last activity, least recent first: an entry moves to the end when used. */
  private readonly entries = new Map<string, Entry>();
  /** Sessions held or being initialized, per owner. */
  private readonly owned = new Map<string, number>();
  private pending = 0;
  private readonly now: () => number;
  private readonly maxPerOwner: number;
  private readonly silentMs: number;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: SessionRegistryOptions) {
    this.now = options.now ?? Date.now;
    this.maxPerOwner = Math.max(
      1,
      Math.min(options.maxSessions, options.maxPerOwner ?? Math.ceil(options.maxSessions / 4)),
    );
    this.silentMs = options.silentMs ?? Math.min(options.idleMs, 60_000);
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

  /**
   * Marks the session's GET event stream as open: `carried` when it sends something, `end` when it
   * closes. An open stream alone does not keep the session busy.
   */
  openStream(id: string): { carried(): void; end(): void } {
    const entry = this.entries.get(id);
    if (!entry) return { carried: () => {}, end: () => {} };
    entry.streams++;
    this.touch(entry);
    let ended = false;
    return {
      carried: () => {
        if (!ended) this.touch(entry);
      },
      end: () => {
        if (ended) return;
        ended = true;
        entry.streams--;
      },
    };
  }

  /** Marks a request of the session as started; call the result when it ends. */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (!entry) return () => {};
    entry.active++;
    this.touch(entry);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.active--;
      this.touch(entry);
    };
  }

  /**
   * A place for a new session of `owner`: made by ending an idle session when the owner's share
   * or the cap is reached; refused only when every session that could make room is busy.
   */
  reserve(owner: string): ReserveResult {
    if (this.entries.size + this.pending >= this.options.maxSessions) this.sweep();
    const share = this.maxPerOwner < this.options.maxSessions;
    if (share && (this.owned.get(owner) ?? 0) >= this.maxPerOwner) {
      const victim = this.leastRecentIdle(owner);
      if (!victim) return { ok: false, reason: "share", retryAfterSeconds: BUSY_RETRY_SECONDS };
      this.evict(victim, "share");
    }
    if (this.entries.size + this.pending >= this.options.maxSessions) {
      const victim = this.leastRecentIdle();
      if (!victim) return { ok: false, reason: "cap", retryAfterSeconds: BUSY_RETRY_SECONDS };
      this.evict(victim, "cap");
    }
    this.pending++;
    this.count(owner, 1);
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
          this.entries.set(session.id, {
            session,
            owner,
            lastActivity: this.now(),
            active: 0,
            streams: 0,
          });
        },
        release: () => {
          if (done()) this.count(owner, -1);
        },
      },
    };
  }

  /** Forgets a session (its transport closed); does not close it. */
  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.count(entry.owner, -1);
  }

  /** Closes every session idle for idleMs or longer, oldest-idle first; returns how many. */
  sweep(): number {
    const now = this.now();
    const expired = [...this.entries.values()]
      .filter((e) => e.active === 0 && now - e.lastActivity >= this.options.idleMs)
      .sort((a, b) => a.lastActivity - b.lastActivity);
    for (const entry of expired) {
      this.delete(entry.session.id);
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
    this.owned.clear();
    await Promise.allSettled(sessions.map(closeSession));
  }

  /**
   * The least recently used session that may make room (of one owner, if named): no request in
   * flight, and no event stream, or one silent for silentMs.
   */
  private leastRecentIdle(owner?: string): Entry | undefined {
    const now = this.now();
    for (const entry of this.entries.values()) {
      const quiet = entry.streams === 0 || now - entry.lastActivity >= this.silentMs;
      if (entry.active === 0 && quiet && (owner === undefined || entry.owner === owner)) {
        return entry;
      }
    }
    return undefined;
  }

  private evict(entry: Entry, reason: EvictionReason): void {
    this.delete(entry.session.id);
    this.options.onEvict?.(entry.session, reason, this.now() - entry.lastActivity);
    void closeSession(entry.session);
  }

  /** Now active: to the end of the order, as the most recently used. */
  private touch(entry: Entry): void {
    entry.lastActivity = this.now();
    const id = entry.session.id;
    if (this.entries.get(id) !== entry) return;
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private count(owner: string, by: number): void {
    const n = (this.owned.get(owner) ?? 0) + by;
    if (n > 0) this.owned.set(owner, n);
    else this.owned.delete(owner);
  }
}

async function closeSession(session: HttpSession): Promise<void> {
  // Closing the transport ends its streams; closing the server frees the session's memory.
  await Promise.allSettled([session.transport.close(), session.workforce.close()]);
}
