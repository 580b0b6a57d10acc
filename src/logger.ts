// Logs go to stderr only: in stdio mode stdout belongs to the MCP protocol.
export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogSink = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

export interface Logger {
  level: LogLevel;
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warning(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
  /** Every later line has this value replaced by `[redacted]`. */
  addSecret(secret: string | undefined): void;
  /** Extra destinations (for example MCP log notifications); returns an unsubscribe function. */
  addSink(sink: LogSink): () => void;
  redact(text: string): string;
}

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warning: 2, error: 3 };

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const secrets = new Set<string>();
  const sinks = new Set<LogSink>();
  const redact = (text: string): string => {
    let out = text;
    // Split only where a secret is: most text holds none and comes back as it was, uncopied.
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join("[redacted]");
    return out;
  };
  const log = (at: LogLevel, message: string, data?: Record<string, unknown>) => {
    if (rank[at] < rank[logger.level]) return;
    const detail = data === undefined ? "" : ` ${safeJson(data)}`;
    const text = redact(`${message}${detail}`);
    write(`[workforce-mcp] ${at}: ${text}\n`);
    for (const sink of sinks) {
      const cleanData = data === undefined ? undefined : JSON.parse(redact(safeJson(data)));
      sink(at, redact(message), cleanData);
    }
  };
  const logger: Logger = {
    level,
    debug: (m, d) => log("debug", m, d),
    info: (m, d) => log("info", m, d),
    warning: (m, d) => log("warning", m, d),
    error: (m, d) => log("error", m, d),
    addSecret(secret) {
      if (secret && secret.length >= 4) secrets.add(secret);
    },
    addSink(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    redact,
  };
  return logger;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return '"[unserialisable]"';
  }
}
