// Free text the server sends on the person's behalf (a message to a worker, a reason, a job's
// description) must be exactly what the preview showed. Characters a reader cannot see, or that
// reorder what they see, are refused, never removed: the person reads what is sent, and what is sent
// is what they read. Line breaks and tabs stay, shown as \n and \t inside the quoted text.
import * as z from "zod";
import { jsonQuoted } from "../client/platform-text.js";

// C0 controls but tab, line feed and carriage return; DEL and C1; line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/u;
// Invisible or direction-changing: soft hyphen, Arabic letter mark, Mongolian vowel separator,
// zero-width space, bidi marks, embeddings, overrides and isolates, word joiner and invisible
// operators, the BOM, interlinear annotation marks, and Unicode tag characters. The zero-width
// (non-)joiners U+200C/U+200D stay: Persian and Indic text and combined emoji need them.
const HIDDEN =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
const REFUSED = new RegExp(`${CONTROL.source}|${HIDDEN.source}`, "gu");

/** Names of the characters people meet most, by code point. */
const NAMES: Record<string, string> = {
  "00AD": "SOFT HYPHEN",
  "061C": "ARABIC LETTER MARK",
  "200B": "ZERO WIDTH SPACE",
  "200E": "LEFT-TO-RIGHT MARK",
  "200F": "RIGHT-TO-LEFT MARK",
  "202A": "LEFT-TO-RIGHT EMBEDDING",
  "202B": "RIGHT-TO-LEFT EMBEDDING",
  "202C": "POP DIRECTIONAL FORMATTING",
  "202D": "LEFT-TO-RIGHT OVERRIDE",
  "202E": "RIGHT-TO-LEFT OVERRIDE",
  "2028": "LINE SEPARATOR",
  "2029": "PARAGRAPH SEPARATOR",
  "2060": "WORD JOINER",
  "2066": "LEFT-TO-RIGHT ISOLATE",
  "2067": "RIGHT-TO-LEFT ISOLATE",
  "2068": "FIRST STRONG ISOLATE",
  "2069": "POP DIRECTIONAL ISOLATE",
  FEFF: "ZERO WIDTH NO-BREAK SPACE",
};

const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, "0");

/** The characters of `text` that a reader cannot see or that change its direction, named. */
export function hiddenCharacters(text: string): string[] {
  const found = new Map<number, number>();
  let index = 0;
  for (const char of text) {
    index++;
    REFUSED.lastIndex = 0;
    if (!REFUSED.test(char)) continue;
    const cp = char.codePointAt(0) as number;
    if (!found.has(cp)) found.set(cp, index);
  }
  return [...found].map(([cp, at]) => {
    const name = NAMES[hex(cp)] ?? (cp >= 0xe0000 ? "TAG CHARACTER" : "CONTROL CHARACTER");
    return `U+${hex(cp)} ${name} (character ${at})`;
  });
}

/** How a refusal says which hidden characters a value holds (after the value's name). */
export const holdsHidden = (hidden: string[]) =>
  `holds characters a reader cannot see or that change the text's direction: ${hidden.join(", ")}`;

/** What to do about them. */
export const REMOVE_HIDDEN = "Remove them: the person must read exactly what is sent.";

/**
 * A free-text argument the server sends as it is: trimmed, `min` to `max` characters, and refused
 * when it holds invisible or direction-changing characters, naming them.
 */
export function sentTextSchema(min: number, max: number) {
  return z
    .string()
    .trim()
    .superRefine((text, ctx) => {
      if (text.length < min || text.length > max) {
        ctx.addIssue({ code: "custom", message: `${min} to ${max} characters` });
        return;
      }
      const hidden = hiddenCharacters(text);
      if (hidden.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `remove the characters a reader cannot see or that change the text's direction, since the person must read exactly what is sent: ${hidden.join(", ")}`,
        });
      }
    });
}

/**
 * Free text as a preview shows it: whole, in double quotes, escaped as in JSON (look-alike quotes
 * too), so a line break reads as \n and the text cannot close its own quotes.
 */
export const sentTextShown = (text: string): string => jsonQuoted(text);
