import type { IncomingMessage } from "node:http";

/**
 * A request's body as text, read up to `maxBytes`: past that the request is dropped and the
 * promise rejects with `tooLarge()` (nothing more is read, so a huge body costs no memory).
 */
export function readBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
