// --stateless without Redis: no sessions, a server per request, state in this process's memory.
// (With Redis, test/redis/replicas.test.ts runs three replicas.)
import { afterEach, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { type HttpServerHandle, startHttpServer } from "../../src/transports/http.js";
import { httpConfig, initialize, messages, quietLogger, raw } from "./http-helpers.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((o) => o.close()));
});

async function start(env: NodeJS.ProcessEnv = {}): Promise<HttpServerHandle> {
  const handle = await startHttpServer(httpConfig({ stateless: true }, env), quietLogger(), "test");
  open.push(handle);
  return handle;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { text: string }[];
};
const resultOf = (body: Record<string, unknown>[]) =>
  body.find((m) => "result" in m)?.result as ToolResult;

describe("stateless HTTP (--stateless)", () => {
  it("opens no session, and a preview from one request is confirmed by a later one", async () => {
    const server = await start();
    const url = `${server.url}/mcp`;
    const init = await raw(url, { body: initialize });
    expect(init.status).toBe(200);
    expect(init.headers["mcp-session-id"]).toBeUndefined();

    // Sandbox hire_001 is terminable; each request below reaches a server of its own.
    const args = { hireId: "hire_001", reason: "PROJECT_COMPLETED_EARLY", date: "2099-12-31" };
    const preview = resultOf(messages(await raw(url, { body: call(2, "terminate_hire", args) })));
    const token = preview.structuredContent?.confirmationToken as string;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const confirmed = resultOf(
      messages(
        await raw(url, { body: call(3, "terminate_hire", { ...args, confirmationToken: token }) }),
      ),
    );
    expect(confirmed.isError).toBeFalsy();
    const replay = resultOf(
      messages(
        await raw(url, { body: call(4, "terminate_hire", { ...args, confirmationToken: token }) }),
      ),
    );
    expect(replay.isError).toBe(true);
    expect(replay.content[0]?.text).toMatch(/unknown, expired or already used/);
  });

  it("finds a tool not listed, changes no list (there is none to change), and runs it through run_write_tool", async () => {
    const server = await start();
    const url = `${server.url}/mcp`;
    await raw(url, { body: initialize });
    const found = resultOf(
      messages(await raw(url, { body: call(2, "find_tools", { query: "PO number" }) })),
    );
    expect(found.structuredContent?.addedToList).toBe(false);
    const tools = found.structuredContent?.tools as { name: string }[];
    expect(tools[0]?.name).toBe("update_payment_request");
    const args = { paymentRequestId: "pr_0016", purchaseOrderNumber: "PO-STATELESS" };
    const proxied = (id: number, extra: Record<string, unknown> = {}) =>
      call(id, "run_write_tool", {
        name: "update_payment_request",
        arguments: { ...args, ...extra },
      });
    const preview = resultOf(messages(await raw(url, { body: proxied(3) })));
    const token = preview.structuredContent?.confirmationToken as string;
    expect(preview.content[0]?.text).toContain(
      'call run_write_tool {"name": "update_payment_request"',
    );
    const done = resultOf(
      messages(await raw(url, { body: proxied(4, { confirmationToken: token }) })),
    );
    expect(done.isError, done.content[0]?.text).toBeFalsy();
  });

  it("answers GET and DELETE with 405: there is no stream or session to open or end", async () => {
    const server = await start();
    for (const method of ["GET", "DELETE"]) {
      const res = await raw(`${server.url}/mcp`, {
        method,
        headers: { accept: "text/event-stream" },
      });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe("POST");
    }
  });

  it("checks each request's own bearer when clients bring their platform tokens", async () => {
    const sandbox: Sandbox = await startSandbox({ rateLimitPerMinute: 0 });
    open.push(sandbox);
    const server = await start({
      WORKFORCE_API_URL: sandbox.url,
      WORKFORCE_TOKEN_PASSTHROUGH: "1",
    });
    const url = `${server.url}/mcp`;
    const auth = { authorization: `Bearer ${sandbox.tokens.full}` };
    expect((await raw(url, { body: initialize, headers: auth })).status).toBe(200);
    // No session remembers the bearer: a request without one is refused on its own.
    const bare = await raw(url, { body: call(2, "list_accounts", {}) });
    expect(bare.status).toBe(401);
    expect(bare.headers["www-authenticate"]).toMatch(/^Bearer/);
    const ok = resultOf(
      messages(await raw(url, { body: call(3, "list_accounts", {}), headers: auth })),
    );
    expect(ok.isError).toBeFalsy();
    // A token the platform does not accept is refused before the request is served.
    const wrong = await raw(url, {
      body: call(4, "list_accounts", {}),
      headers: { authorization: "Bearer not-a-real-token" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers["www-authenticate"]).toMatch(/error="invalid_token"/);
  });
});
