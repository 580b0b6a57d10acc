// A platform stand-in that answers with a very large body.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface BigAnswerServer {
  url: string;
  /** Requests answered. */
  hits: number;
  /** Body bytes the server managed to hand to the socket, over all requests. */
  written: number;
  close(): Promise<void>;
}

/**
 * Answers every request with `{"data":{"blob":"aaa…"}}` of exactly `totalBytes`, streamed in 64 KB
 * chunks from one buffer (no 50 MB string is built), honouring back-pressure and stopping when the
 * client hangs up. With `contentLength`, the size is declared up front; otherwise it is chunked.
 */
export async function bigAnswerServer(options: {
  totalBytes: number;
  contentLength: boolean;
}): Promise<BigAnswerServer> {
  const head = Buffer.from('{"data":{"blob":"');
  const tail = Buffer.from('"}}');
  const filler = Buffer.alloc(64 * 1024, 0x61);
  const state = { hits: 0, written: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      state.hits++;
      res.on("error", () => {});
      res.writeHead(200, {
        "content-type": "application/json",
        ...(options.contentLength ? { "content-length": String(options.totalBytes) } : {}),
      });
      let left = options.totalBytes - head.length - tail.length;
      const send = (chunk: Buffer) => {
        state.written += chunk.length;
        return res.write(chunk);
      };
      const pump = () => {
        while (left > 0) {
          if (res.destroyed) return;
          const piece = left >= filler.length ? filler : filler.subarray(0, left);
          left -= piece.length;
          if (!send(piece)) {
            res.once("drain", pump);
            return;
          }
        }
        state.written += tail.length;
        res.end(tail);
      };
      send(head);
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    get written() {
      return state.written;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
