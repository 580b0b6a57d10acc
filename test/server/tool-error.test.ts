import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  CancelledError,
  FieldRestrictedError,
  NetworkError,
  PlatformFailureError,
  RateLimitedError,
  SchemaMismatchError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
} from "../../src/client/errors.js";
import { createLogger } from "../../src/logger.js";
import { ToolInputError } from "../../src/tools/define-tool.js";
import { toToolErrorResult, validationArgument } from "../../src/tools/tool-error.js";

function textOf(error: unknown, logger = createLogger("debug", () => {})): string {
  const result = toToolErrorResult(error, "search_hires", { logger });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const first = result.content[0];
  if (first?.type !== "text") throw new Error("expected text content");
  return first.text;
}

describe("toToolErrorResult", () => {
  it("names the tool argument behind a platform validation path", () => {
    const text = textOf(
      new ValidationError("The given data was invalid.", {
        validation: { "input.date": ["The date must be a date after today."] },
      }),
    );
    expect(text).toContain('`date`: "The date must be a date after today."');
    expect(text).not.toContain("input.date");
    expect(text).toContain("Trying again will not help until the arguments are corrected.");
  });

  it("maps nested and indexed validation paths", () => {
    expect(validationArgument("input.registrations.3.hours")).toBe("registrations[3].hours");
    expect(validationArgument("input.date")).toBe("date");
    expect(validationArgument("name")).toBe("name");
  });

  it("names the argument of a ToolInputError and passes on its hint", () => {
    const text = textOf(
      new ToolInputError("must be YYYY-MM-DD", "startDate", "Use a date such as 2026-12-01."),
    );
    expect(text).toContain("argument `startDate`: must be YYYY-MM-DD.");
    expect(text).toContain("Use a date such as 2026-12-01.");
    expect(text).toContain("Trying again will not help until the arguments are changed.");
  });

  it("tells the person to create a new token when it is expired or revoked", () => {
    const text = textOf(new AuthenticationError("Unauthenticated."));
    expect(text).toMatch(/expired or revoked/);
    expect(text).toContain("Create a new personal access token");
    expect(text).toContain("Trying again will not help until a valid token is configured.");
  });

  it("says an account lacks access, naming the field", () => {
    const text = textOf(new AuthorizationError("Not authorized", { path: ["terminateHire"] }));
    expect(text).toContain("not allowed to do that (`terminateHire`)");
    expect(text).toContain("Trying again will not help until the account is given access.");
  });

  it("names a restricted field", () => {
    const text = textOf(new FieldRestrictedError("hidden", { path: ["hire", "rate"] }));
    expect(text).toContain("hides `hire.rate`");
  });

  it("says how long to wait after a rate limit", () => {
    const text = textOf(
      new RateLimitedError("Too Many Requests", { retryAfterMs: 12_300, attempts: 4 }),
    );
    expect(text).toContain("rate limit was reached (after 4 attempts)");
    expect(text).toContain("Trying again in 13 seconds should work.");
  });

  it("says the platform's API changed and names the field", () => {
    const text = textOf(
      new SchemaMismatchError('Cannot query field "rate" on type "Hire".', { path: ["hire"] }),
    );
    expect(text).toContain("the platform's API changed");
    expect(text).toContain('"rate"');
    expect(text).toContain("Trying again will not help until workforce-mcp is updated");
  });

  it("says a change may have happened when the outcome is unknown", () => {
    for (const error of [
      new PlatformFailureError("Internal server error.", { outcomeUnknown: true }),
      new NetworkError("socket hang up", { outcomeUnknown: true }),
      new TimeoutError("timed out", { outcomeUnknown: true }),
    ]) {
      const text = textOf(error);
      expect(text).toContain("The change may have happened, or may not.");
      expect(text).toContain("Do not simply try again: read the record back first");
    }
  });

  it("says a transient failure will likely pass", () => {
    const text = textOf(new PlatformFailureError("Internal server error.", { attempts: 4 }));
    expect(text).toContain("internal failure (after 4 attempts)");
    expect(text).toContain("Trying again in 60 seconds should work.");
    expect(textOf(new NetworkError("ECONNREFUSED"))).toContain("could not be reached");
    expect(textOf(new TimeoutError("slow"))).toContain("did not answer in time");
  });

  it("points at the configuration when the address is not the platform", () => {
    const text = textOf(new UnexpectedResponseError("HTML", { status: 404 }));
    expect(text).toContain("not the platform's GraphQL API (HTTP 404)");
    expect(text).toContain("Check WORKFORCE_API_URL");
    expect(text).toContain("Trying again will not help");
    expect(textOf(new BadRequestError("bad", { status: 400 }))).toContain("(HTTP 400)");
  });

  it("reports a cancellation", () => {
    expect(textOf(new CancelledError("aborted"))).toContain("was cancelled before it finished");
  });

  it("hides the details of unexpected errors and logs them instead", () => {
    const lines: string[] = [];
    const logger = createLogger("debug", (line) => lines.push(line));
    const text = textOf(new TypeError("Cannot read properties of undefined (reading 'x')"), logger);
    expect(text).toContain("unexpected problem inside workforce-mcp");
    expect(text).not.toContain("Cannot read properties");
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    expect(lines.join("")).toContain("Cannot read properties");
  });

  it("never shows the token", () => {
    const token = "wf_pat_SECRET_1234567890";
    const logger = createLogger("debug", () => {});
    logger.addSecret(token);
    const text = textOf(
      new ValidationError(`bad ${token}`, { validation: { "input.search": [`echo ${token}`] } }),
      logger,
    );
    expect(text).not.toContain(token);
    expect(text).toContain("[redacted]");
  });
});
