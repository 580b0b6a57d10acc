// The platform client stops reading an answer once it passes maxResponseBytes, without buffering
// it: a 50 MB body must neither reach memory nor an MCP message.
import { afterEach, describe, expect, it } from "vitest";
import {
  createPlatformClient,
  type PlatformError,
  ResponseTooLargeError,
} from "../../src/client/index.js";
import type { Operation } from "../../src/client/types.js";
import { type BigAnswerServer, bigAnswerServer } from "../helpers/big-answer.js";

const MB = 1024 * 1024;

const blobQuery: Operation<{ blob: string }> = {
  name: "TestBlob",
  type: "query",
  safeToRepeat: true,
  document: "query TestBlob { blob }",
};
const blobMutation: Operation<{ blob: string }> = {
  name: "TestBlobWrite",
  type: "mutation",
  safeToRepeat: false,
  document: "mutation TestBlobWrite { blob }",
};

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    return error as PlatformError;
  }
  throw new Error("expected the call to fail");
}

const servers: BigAnswerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(totalBytes: number, contentLength: boolean) {
  const server = await bigAnswerServer({ totalBytes, contentLength });
  servers.push(server);
  return server;
}

const client = (url: string, maxResponseBytes?: number) =>
  createPlatformClient({
    apiUrl: url,
    token: "stub-token-1234",
    retryBaseMs: 1,
    rateLimitPerMinute: 10_000,
    maxResponseBytes,
  });

describe("maxResponseBytes", () => {
  // The memory such an answer costs is a figure of `npm run bench` (bench/ceilings.mjs).
  it("a chunked 50 MB body without Content-Length: stops after the limit", async () => {
    const server = await serve(50 * MB, false);
    const error = await failure(client(server.url, 5 * MB).run(blobQuery, {}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.kind).toBe("response-too-large");
    expect(tooLarge.retryable).toBe(false);
    expect(tooLarge.outcomeUnknown).toBe(false);
    expect(tooLarge.limitBytes).toBe(5 * MB);
    expect(tooLarge.declaredBytes).toBeUndefined();
    expect(tooLarge.operation).toBe("TestBlob");
    expect(tooLarge.message).toBe(
      "The platform's answer to TestBlob was larger than 5 MB, the most this server reads, so it was not read. WORKFORCE_MAX_RESPONSE_BYTES can raise the limit.",
    );
    expect(tooLarge.hint).toContain("WORKFORCE_MAX_RESPONSE_BYTES");
    // Not retried: the same request gets the same answer.
    expect(server.hits).toBe(1);
    // The connection was dropped: the server could not push the whole body.
    expect(server.written).toBeLessThan(25 * MB);
  });

  it("a Content-Length over the limit: refused before the body is read", async () => {
    const server = await serve(50 * MB, true);
    const error = await failure(client(server.url, 5 * MB).run(blobQuery, {}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).declaredBytes).toBe(50 * MB);
    expect(error.message).toBe(
      "The platform's answer to TestBlob was larger than 5 MB (50 MB), the most this server reads, so it was not read. WORKFORCE_MAX_RESPONSE_BYTES can raise the limit.",
    );
    expect(server.hits).toBe(1);
    expect(server.written).toBeLessThan(25 * MB);
  });

  it("defaults to 5 MB when the option is not given", async () => {
    const server = await serve(5 * MB + 1, true);
    const error = await failure(client(server.url).run(blobQuery, {}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limitBytes).toBe(5 * MB);
  });

  it("a body of exactly the limit is read; one byte more is not", async () => {
    const limit = 64 * 1024;
    for (const contentLength of [true, false]) {
      const exact = await serve(limit, contentLength);
      const { data } = await client(exact.url, limit).run(blobQuery, {});
      expect(data.blob.length).toBe(limit - '{"data":{"blob":""}}'.length);

      const over = await serve(limit + 1, contentLength);
      const error = await failure(client(over.url, limit).run(blobQuery, {}));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.message).toContain("larger than 64 KB");
    }
  });

  it("a write whose answer is too large: the outcome is unknown", async () => {
    const server = await serve(2 * MB, false);
    const error = await failure(client(server.url, MB).run(blobMutation, {}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.outcomeUnknown).toBe(true);
    expect(tooLarge.retryable).toBe(false);
    expect(tooLarge.message).toBe(
      "The platform did not confirm whether TestBlobWrite took effect: its answer was larger than 1 MB, the most this server reads, so it was not read. WORKFORCE_MAX_RESPONSE_BYTES can raise the limit.",
    );
    expect(tooLarge.hint).toContain("Read the record back");
    expect(server.hits).toBe(1);
  });

  it("an idempotent write (createCustomTimesheet-like): outcome unknown too, and not retried", async () => {
    const server = await serve(2 * MB, false);
    const idempotent = { ...blobMutation, name: "TestBlobUpsert", safeToRepeat: true };
    const error = await failure(client(server.url, MB).run(idempotent, {}));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).outcomeUnknown).toBe(true);
    expect(server.hits).toBe(1);
  });

  it("the next request after a refused answer works (the dropped socket is not reused)", async () => {
    const big = await serve(2 * MB, false);
    const c = client(big.url, MB);
    expect(await failure(c.run(blobQuery, {}))).toBeInstanceOf(ResponseTooLargeError);
    const small = await serve(1024, false);
    const same = client(small.url, MB);
    const { data } = await same.run(blobQuery, {});
    expect(data.blob.length).toBeGreaterThan(1000);
    // And the same server again, on a new connection.
    expect(await failure(c.run(blobQuery, {}))).toBeInstanceOf(ResponseTooLargeError);
    expect(big.hits).toBe(2);
  });
});
