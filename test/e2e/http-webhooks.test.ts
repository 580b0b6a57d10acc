// The webhook receiver as --http mounts it, at /webhooks/platform beside /mcp, and its settings.
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import {
  COMPANY,
  contractAccepted,
  deliver,
  SECRET,
  SECRET_SETTING,
  sign,
} from "../helpers/webhooks.js";
import { httpConfig } from "./http-helpers.js";

const open: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((o) => o.close()));
});

async function start(env: NodeJS.ProcessEnv) {
  const lines: string[] = [];
  const handle = await startHttpServer(
    httpConfig({}, env),
    createLogger("debug", (line) => lines.push(line)),
    "test",
  );
  open.push(handle);
  return { url: `${handle.url}/webhooks/platform`, lines };
}

describe("--http's webhook receiver", () => {
  it("is off without WORKFORCE_WEBHOOK_SECRETS: 404, and the start says so", async () => {
    const { url, lines } = await start({});
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(url, body)).status).toBe(404);
    expect(lines.join("\n")).toMatch(/Webhook receiver off: \/webhooks\/platform answers 404/);
  });

  it("with secrets, stores a signed event and refuses a forged one; the secrets are never logged", async () => {
    const other = "second_secret_during_rotation";
    const { url, lines } = await start({
      WORKFORCE_WEBHOOK_SECRETS: ` ${SECRET_SETTING} , ${COMPANY}:${other} `,
    });
    const body = JSON.stringify(contractAccepted());
    expect((await deliver(url, body)).status).toBe(200);
    expect((await deliver(url, body, { signature: sign(body, other) })).status).toBe(200);
    expect(
      (await deliver(url, body, { signature: sign(body, "wrong_secret_0123456789") })).status,
    ).toBe(401);
    const log = lines.join("\n");
    expect(log).toMatch(/Webhook receiver on at \/webhooks\/platform: 2 secrets/);
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(other);
  });
});

describe("the webhook settings", () => {
  it("read <company id>:<secret> comma-separated, and the retention and budgets with their defaults", () => {
    const config = parseConfig(["--http"], {
      WORKFORCE_WEBHOOK_SECRETS: `cmp_a:${"a".repeat(16)},,cmp_b:${"b:".repeat(100)}`,
    });
    expect(config.webhookSecrets).toEqual([
      { companyId: "cmp_a", secret: "a".repeat(16) },
      { companyId: "cmp_b", secret: "b:".repeat(100) },
    ]);
    expect(config.webhookRetentionDays).toBe(7);
    expect(config.webhookMaxEvents).toBe(10_000);
    expect([config.webhookMaxBytes, config.webhookCompanyMaxBytes]).toEqual([
      64 * 1024 * 1024,
      4 * 1024 * 1024,
    ]);
    const set = parseConfig(["--http"], {
      WORKFORCE_WEBHOOK_RETENTION_DAYS: "2",
      WORKFORCE_WEBHOOK_MAX_EVENTS: "500",
    });
    expect([set.webhookSecrets, set.webhookRetentionDays, set.webhookMaxEvents]).toEqual([
      [],
      2,
      500,
    ]);
  });

  it("refuse a secret shorter than 16 or longer than 255 characters without quoting it", () => {
    for (const secret of ["short-secret", "s".repeat(256)]) {
      let message = "";
      try {
        parseConfig(["--http"], {
          WORKFORCE_WEBHOOK_SECRETS: `cmp_a:${"ok".repeat(8)},cmp_b:${secret}`,
        });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe(
        "each entry of WORKFORCE_WEBHOOK_SECRETS is <company id>:<secret>, the secret 16 to 255 characters long (no commas): company cmp_b's is not.",
      );
    }
    expect(() => parseConfig([], { WORKFORCE_WEBHOOK_RETENTION_DAYS: "0" })).toThrow(
      "WORKFORCE_WEBHOOK_RETENTION_DAYS must be a whole number from 1 to 90",
    );
  });

  it("OWASP API1 (BOLA): refuse a secret without its company (the old form) and one secret for two companies, never quoting it", () => {
    const secret = "an_old_unbound_secret_0123";
    for (const value of [secret, `cmp_a:${secret},cmp_b:${secret}`]) {
      let message = "";
      try {
        parseConfig(["--http"], { WORKFORCE_WEBHOOK_SECRETS: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/WORKFORCE_WEBHOOK_SECRETS/);
      expect(message).not.toContain(secret);
    }
  });
});
