// The one digest the HTTP transport keys sessions and bearer checks by (with --auth oauth too).
import { createHash } from "node:crypto";

/** SHA-256 of the text's UTF-8 bytes: always 32 bytes. */
export function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
