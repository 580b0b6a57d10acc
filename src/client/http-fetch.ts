import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

interface HttpFetchLimits {
  /** Stop reading (and drop the connection) once the body passes this many bytes. */
  maxResponseBytes?: number;
  /**
   * Give up on a new connection (name lookup and TCP/TLS connect) after this long: an address
   * whose packets are silently dropped fails with CONNECT_TIMEOUT instead of waiting out the
   * whole request time-out. The request was never sent.
   */
  connectTimeoutMs?: number;
}

/** The code of a connection that was not made within `connectTimeoutMs`. */
export const CONNECT_TIMEOUT = "CONNECT_TIMEOUT";

/**
 * The body passed `maxResponseBytes`. Plain (no operation name here); the client turns it into a
 * ResponseTooLargeError.
 */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(
    readonly limitBytes: number,
    /** Content-Length when the platform declared one; otherwise undefined (we stopped early). */
    readonly declaredBytes: number | undefined,
    readonly status: number,
  ) {
    super(`response body over ${limitBytes} bytes`);
  }
}

// Kept-alive sockets, shared by every client in the process, like undici's global dispatcher.
const agents = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true }),
};

/**
 * `fetch` on node:http/https. Why not the global fetch: on Node 20 its WHATWG streams made the
 * server's resident memory climb far higher over a long run of tool calls (docs/performance.md).
 * Network errors keep node's codes (ECONNREFUSED, ECONNRESET) on the thrown error.
 */
export function httpFetch(
  input: string | URL | Request,
  init: RequestInit = {},
  limits: HttpFetchLimits = {},
): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const send =
    url.protocol === "https:" ? httpsRequest : url.protocol === "http:" ? httpRequest : undefined;
  if (!send) {
    return Promise.reject(
      Object.assign(new TypeError(`Unsupported protocol ${url.protocol}`), {
        code: "ERR_INVALID_URL",
      }),
    );
  }
  const headers: Record<string, string> = {};
  // graphql-request hands over a Headers already: read it as it is rather than copy it first.
  const given = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
  given.forEach((value, name) => {
    headers[name] = value;
  });
  const body = typeof init.body === "string" ? init.body : undefined;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));

  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));

  return new Promise<Response>((resolve, reject) => {
    // The signal is watched here rather than handed to node:http, whose own watch adds a stream
    // listener to every request.
    const onAbort = () => req.destroy(abortError(signal));
    const done = (response: Response) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(response);
    };
    const fail = (error: unknown) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    };
    const req = send(
      url,
      {
        method: init.method ?? "GET",
        headers,
        agent: agents[url.protocol as keyof typeof agents],
      },
      (res: IncomingMessage) => {
        readBody(res, limits.maxResponseBytes).then((bytes) => {
          const status = res.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            responseHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          }
          done(plainResponse(status, res.statusMessage ?? "", responseHeaders, bytes));
        }, fail);
      },
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("error", fail);
    const connectMs = limits.connectTimeoutMs;
    if (connectMs !== undefined) {
      req.once("socket", (socket) => {
        // A kept-alive socket is connected already; only a new one can hang here.
        if (!socket.connecting) return;
        const timer = setTimeout(() => {
          req.destroy(
            Object.assign(new Error(`no connection within ${connectMs} ms`), {
              code: CONNECT_TIMEOUT,
            }),
          );
        }, connectMs);
        const clear = () => clearTimeout(timer);
        socket.once("connect", clear);
        socket.once("close", clear);
      });
    }
    req.end(body);
  });
}

/** What fetch rejects with when its signal aborts: an AbortError carrying the signal's reason. */
function abortError(signal: AbortSignal | undefined): Error {
  return Object.assign(new Error("This operation was aborted", { cause: signal?.reason }), {
    name: "AbortError",
    code: "ABORT_ERR",
  });
}

/**
 * Reads the body in chunks and gives up as soon as it passes `max`: an oversized answer must not
 * be buffered (a huge body once took the process to several times its size). Destroying the
 * response closes the socket, so the agent does not reuse it and nothing more arrives.
 */
async function readBody(res: IncomingMessage, max: number | undefined): Promise<Buffer> {
  const status = res.statusCode ?? 502;
  const declared = Number(res.headers["content-length"]);
  if (max !== undefined && Number.isFinite(declared) && declared > max) {
    res.destroy();
    throw new BodyTooLargeError(max, declared, status);
  }
  // Events rather than `for await`: one promise for the body instead of one per chunk.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (max !== undefined && size > max) {
        res.destroy();
        reject(new BodyTooLargeError(max, undefined, status));
        return;
      }
      chunks.push(chunk);
    });
    res.once("end", () =>
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)),
    );
    res.once("error", reject);
    // A body cut short: the connection closed before the end (rejecting again is a no-op).
    res.once("close", () => {
      if (!res.complete) {
        reject(Object.assign(new Error("the answer was cut off"), { code: "ECONNRESET" }));
      }
    });
  });
}

/**
 * The part of a Response that graphql-request and our client read. A real Response would wrap the
 * bytes we already hold in a WHATWG stream only to read them back.
 */
function plainResponse(status: number, statusText: string, headers: Headers, bytes: Buffer) {
  const text = async () => bytes.toString("utf8");
  return {
    status,
    statusText,
    ok: status >= 200 && status < 300,
    headers,
    text,
    json: async () => JSON.parse(await text()),
  } as unknown as Response;
}
