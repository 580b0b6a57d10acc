// A caller's W3C trace context (MCP 2026-07-28 carries it in `_meta.traceparent`; an HTTP
// caller may send the header) goes on with every platform request of that call.
import type { PlatformClient, RequestOptions, TraceContext } from "./types.js";

// version-traceid-parentid-flags; an all-zero trace or parent id is invalid (W3C Trace Context §3.2).
const TRACEPARENT = /^[\da-f]{2}-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;
// A list of key=value members, within the W3C limit of 512 characters that we keep.
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The trace context to carry on, or undefined when there is none or it is malformed. */
export function traceContextOf(
  traceparent: unknown,
  tracestate: unknown,
): TraceContext | undefined {
  if (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent)) return undefined;
  return typeof tracestate === "string" && TRACESTATE.test(tracestate)
    ? { traceparent, tracestate }
    : { traceparent };
}

/** The client with the trace context added to every request it sends. */
export function withTrace(client: PlatformClient, trace: TraceContext): PlatformClient {
  const traced = (options?: RequestOptions): RequestOptions => ({ ...options, trace });
  return {
    request: (operation, variables, options) =>
      client.request(operation, variables, traced(options)),
    run: (operation, variables, options) => client.run(operation, variables, traced(options)),
    introspect: (options) => client.introspect(traced(options)),
  };
}
