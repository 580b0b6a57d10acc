// Reading a body with a size cap: past the cap nothing more is read and the connection is dropped,
// so a huge body costs no memory. Used for requests to the sandbox and for the client metadata
// documents the team server fetches.
import type { IncomingMessage } from "node:http";

/** The body, or undefined as soon as it passes `max` bytes (nothing more is read). */
export function readCapped(message: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    message.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        message.destroy();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    message.once("end", () => resolve(Buffer.concat(chunks, size)));
    message.once("error", reject);
    message.once("close", () => {
      if (!message.complete) reject(new Error("the connection closed before the end of the body"));
    });
  });
}

/** A request's body as text; rejects with `tooLarge()` when it passes `maxBytes`. */
export async function readBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<string> {
  const body = await readCapped(req, maxBytes);
  if (body === undefined) throw tooLarge();
  return body.toString("utf8");
}
