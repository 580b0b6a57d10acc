// Logs go to stderr only: in stdio mode stdout belongs to the MCP protocol.
export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type LogSink = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

/** Whether a sink wants lines at this level; each sink has its own, apart from stderr's. */
type SinkFilter = (level: LogLevel) => boolean;

export interface Logger {
  /** The level of stderr (WORKFORCE_LOG_LEVEL), and of sinks added without a filter of their own. */
  level: LogLevel;
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
  /** Every later line has this value replaced by `[redacted]`. */
  addSecret(secret: string | undefined): void;
  /**
   * Extra destinations (for example MCP log notifications), each at its own level: a client can
   * ask for debug lines while stderr stays at warning. Returns an unsubscribe function.
   */
  addSink(sink: LogSink, wants?: SinkFilter): () => void;
  redact(text: string): string;
}

/** Whether a line at `at` passes a threshold of `level`. */
export function atLeast(at: LogLevel, level: LogLevel): boolean {
  return LOG_LEVELS.indexOf(at) >= LOG_LEVELS.indexOf(level);
}

const NO_SINKS: readonly [LogSink, SinkFilter][] = [];

/** Where a logger's own lines go (stderr, or a parent logger), redacted with its `redact`. */
type Destination = (
  at: LogLevel,
  message: string,
  data: Record<string, unknown> | undefined,
  redact: (text: string) => string,
) => void;

/** The one logger: its secrets and sinks; `level` and the destination are the caller's. */
function loggerTo(
  level: { get(): LogLevel; set(level: LogLevel): void },
  destination: Destination,
  inheritedRedact: (text: string) => string = (text) => text,
): Logger {
  const secrets = new Set<string>();
  const sinks = new Map<LogSink, SinkFilter>();
  const redact = (text: string): string => {
    let out = inheritedRedact(text);
    // Split only where a secret is: most text holds none and comes back as it was, uncopied.
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join("[redacted]");
    return out;
  };
  const log = (at: LogLevel, message: string, data?: Record<string, unknown>) => {
    const toDestination = atLeast(at, level.get());
    // A logger without sinks (HTTP's process logger, the commands) builds no array per line.
    const targets = sinks.size === 0 ? NO_SINKS : [...sinks].filter(([, wants]) => wants(at));
    if (!toDestination && targets.length === 0) return;
    if (toDestination) destination(at, message, data, redact);
    // Redacted at every level: a client at debug sees no more secrets than stderr at error.
    for (const [sink] of targets) sink(at, redact(message), redactData(data, redact));
  };
  return {
    get level() {
      return level.get();
    },
    set level(next: LogLevel) {
      level.set(next);
    },
    debug: (m, d) => log("debug", m, d),
    info: (m, d) => log("info", m, d),
    warning: (m, d) => log("warning", m, d),
    error: (m, d) => log("error", m, d),
    addSecret(secret) {
      if (secret && secret.length >= 4) secrets.add(secret);
    },
    addSink(sink, wants = (at) => atLeast(at, level.get())) {
      sinks.set(sink, wants);
      return () => sinks.delete(sink);
    },
    redact,
  };
}

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  let current = level;
  return loggerTo(
    {
      get: () => current,
      set: (next) => {
        current = next;
      },
    },
    (at, message, data, redact) => {
      const detail = data === undefined ? "" : ` ${safeJson(data)}`;
      write(`[workforce-mcp] ${at}: ${redact(`${message}${detail}`)}\n`);
    },
  );
}

/**
 * A logger for one HTTP session: its lines go to `parent` (stderr, at the parent's level), but only
 * its own sinks (the session's MCP log notifications) get them, each at its own level, and
 * `secret` (the session's platform token) is redacted without being added to the parent.
 */
export function createChildLogger(parent: Logger, secret?: string): Logger {
  const child = loggerTo(
    {
      get: () => parent.level,
      set: (next) => {
        parent.level = next;
      },
    },
    (at, message, data, redact) => parent[at](redact(message), redactData(data, redact)),
    parent.redact,
  );
  child.addSecret(secret);
  return child;
}

function redactData(
  data: Record<string, unknown> | undefined,
  redact: (text: string) => string,
): Record<string, unknown> | undefined {
  if (data === undefined) return undefined;
  try {
    return JSON.parse(redact(JSON.stringify(data)));
  } catch {
    return { data: "[unserialisable]" };
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return '"[unserialisable]"';
  }
}
