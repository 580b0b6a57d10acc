import { Transform, type TransformCallback } from "node:stream";

/**
 * Largest stdio message (one line, in bytes) the server accepts: room for the biggest legitimate
 * one (a submit_timesheets call with its most rows, each with its largest meta), and under the
 * SDK's ReadBuffer cap, which would close the session instead. The sums: docs/performance.md.
 */
export const MAX_STDIO_MESSAGE_BYTES = 4 * 1024 * 1024;

/** The JSON-RPC error code for a message that is not a valid request. */
export const INVALID_REQUEST = -32600;

export interface OversizeMessage {
  /** Bytes of the line, without its newline (as far as it was read, if stdin ended first). */
  bytes: number;
  /** The request's id when it could be read from the line's first or last bytes; else undefined. */
  id: string | number | undefined;
}

// Enough of each end of a line to hold `{"jsonrpc":"2.0","id":…,"method":"…"` in any member order.
const EDGE_BYTES = 512;
const NEWLINE = 0x0a;

/**
 * Passes only whole lines up to `limit` bytes through to the SDK's transport. A longer line is
 * dropped as it arrives (memory stays bounded) and reported once its newline comes, so the
 * session goes on with the next message instead of the SDK closing it.
 */
export class StdinLineGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while dropping an oversize line: its first and last bytes, and its length so far. */
  private dropping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly limit: number,
    private readonly onOversize: (message: OversizeMessage) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.collect(chunk.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // stdin ended inside an oversize line: nobody is left to answer, but say it in the log.
    if (this.dropping) this.report();
    else if (this.pendingBytes > 0) this.push(Buffer.concat(this.pending));
    this.pending = [];
    done();
  }

  private collect(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.dropping) {
      this.dropping.bytes += piece.length;
      this.dropping.tail = lastBytes(Buffer.concat([this.dropping.tail, piece]));
      return;
    }
    if (this.pendingBytes + piece.length <= this.limit) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const line = Buffer.concat([...this.pending, piece]);
    this.dropping = {
      head: Buffer.from(line.subarray(0, EDGE_BYTES)),
      tail: Buffer.from(lastBytes(line)),
      bytes: line.length,
    };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endLine(): void {
    if (this.dropping) {
      this.report();
      return;
    }
    this.pending.push(Buffer.from("\n"));
    this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }

  private report(): void {
    const dropped = this.dropping;
    this.dropping = undefined;
    if (!dropped) return;
    const id = requestId(dropped.head.toString("utf8"), dropped.tail.toString("utf8"));
    this.onOversize({ bytes: dropped.bytes, id });
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}

const PRIMITIVE = String.raw`(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)`;
const LEADING_MEMBER = new RegExp(String.raw`\s*"([^"\\]*)"\s*:\s*${PRIMITIVE}\s*,`, "y");
const TRAILING_MEMBER = new RegExp(String.raw`,\s*"([^"\\]*)"\s*:\s*${PRIMITIVE}\s*$`);

/**
 * The id of a request, read without parsing the whole line: from the primitive members at the
 * start of the top-level object (`{"jsonrpc":"2.0","id":1,"method":…`) or at its end (the TS SDK
 * writes `{"method":…,"params":{…},"jsonrpc":"2.0","id":1}`). Only a line that shows a `method`
 * is a request; answering a response or a notification with an id would confuse the client.
 */
export function requestId(head: string, tail: string): string | number | undefined {
  const members = new Map<string, unknown>();
  const open = /^\s*\{/.exec(head);
  if (open) {
    LEADING_MEMBER.lastIndex = open[0].length;
    for (let m = LEADING_MEMBER.exec(head); m; m = LEADING_MEMBER.exec(head)) {
      members.set(m[1] as string, parsePrimitive(m[2] as string));
    }
  }
  const close = /\}\s*$/.exec(tail);
  let rest = close ? tail.slice(0, close.index) : "";
  for (let m = TRAILING_MEMBER.exec(rest); m; m = TRAILING_MEMBER.exec(rest)) {
    if (!members.has(m[1] as string)) members.set(m[1] as string, parsePrimitive(m[2] as string));
    rest = rest.slice(0, m.index);
  }
  const id = members.get("id");
  if (typeof members.get("method") !== "string") return undefined;
  if (typeof id === "string" || (typeof id === "number" && Number.isInteger(id))) return id;
  return undefined;
}

function parsePrimitive(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
