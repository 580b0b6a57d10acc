import { atLeast, type Logger, type LogLevel, type LogSink, type SinkFilter } from "../logger.js";

/**
 * A logger for one HTTP session: lines go to the process's logger (stderr) as usual, but only this
 * session's lines reach this session's sinks (its MCP log notifications), and the session's own
 * platform token is redacted without being added to the process-wide logger. Stderr follows the
 * process's level; each sink its own (the session's client may ask for debug lines).
 */
export function createSessionLogger(base: Logger, sessionToken?: string): Logger {
  const sinks = new Map<LogSink, SinkFilter>();
  const secrets = new Set<string>();
  if (sessionToken && sessionToken.length >= 4) secrets.add(sessionToken);
  const redact = (text: string): string => {
    let out = base.redact(text);
    for (const s of secrets) out = out.split(s).join("[redacted]");
    return out;
  };
  const log = (at: LogLevel, message: string, data?: Record<string, unknown>) => {
    const targets = [...sinks].filter(([, wants]) => wants(at));
    if (!atLeast(at, base.level) && targets.length === 0) return;
    const cleanMessage = redact(message);
    const cleanData = data === undefined ? undefined : redactData(data, redact);
    base[at](cleanMessage, cleanData);
    for (const [sink] of targets) sink(at, cleanMessage, cleanData);
  };
  return {
    get level() {
      return base.level;
    },
    set level(level: LogLevel) {
      base.level = level;
    },
    debug: (m, d) => log("debug", m, d),
    info: (m, d) => log("info", m, d),
    warning: (m, d) => log("warning", m, d),
    error: (m, d) => log("error", m, d),
    addSecret(secret) {
      if (secret && secret.length >= 4) secrets.add(secret);
    },
    addSink(sink, wants = (at) => atLeast(at, base.level)) {
      sinks.set(sink, wants);
      return () => sinks.delete(sink);
    },
    redact,
  };
}

function redactData(
  data: Record<string, unknown>,
  redact: (text: string) => string,
): Record<string, unknown> {
  try {
    return JSON.parse(redact(JSON.stringify(data)));
  } catch {
    return { data: "[unserialisable]" };
  }
}
