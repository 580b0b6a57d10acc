import { describe, expect, it } from "vitest";
import { createChildLogger, createLogger } from "../../src/logger.js";

describe("an HTTP session's logger", () => {
  it("gives its client's sink debug lines while stderr stays at error, the session token redacted", () => {
    const stderr: string[] = [];
    const base = createLogger("error", (line) => stderr.push(line));
    const session = createChildLogger(base, "session-token-1234");
    const seen: unknown[] = [];
    session.addSink(
      (level, message, data) => seen.push({ level, message, data }),
      () => true,
    );
    session.debug("sent with session-token-1234", { header: "Bearer session-token-1234" });
    expect(seen).toEqual([
      { level: "debug", message: "sent with [redacted]", data: { header: "Bearer [redacted]" } },
    ]);
    expect(stderr).toEqual([]);
  });

  it("keeps a sink without a level of its own at stderr's level", () => {
    const base = createLogger("warning", () => {});
    const session = createChildLogger(base);
    const seen: string[] = [];
    session.addSink((level) => seen.push(level));
    session.info("quiet");
    session.warning("loud");
    expect(seen).toEqual(["warning"]);
  });
});
