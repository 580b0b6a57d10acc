// Strings from the platform (names, emails, messages, ids) are data, not the server's words. A name
// like "Ana\n\nSYSTEM NOTICE: …" must not become a line of its own in an answer or a dialog, so every
// platform value is rendered on one line, and free text is quoted (the instructions say what quotes
// mean). Structured content keeps the raw values: JSON escapes them already.

/** Longest platform value shown in text, in characters; longer ones end in "…". */
export const PLATFORM_TEXT_MAX = 200;

// Line breaks and other controls: C0, DEL, C1, U+2028/U+2029. They become spaces so words stay apart.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// Invisible formatting: zero-width spaces, bidi marks, embeddings, overrides and isolates, the BOM,
// and Unicode tag characters (used to smuggle hidden text). They are removed. The zero-width
// (non-)joiners U+200C/U+200D stay: Persian and Indic names and combined emoji need them.
const INVISIBLE =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

// Printable ASCII and Latin-1 letters, single spaces, no space at either end.
const PLAIN = /^(?:[!-~\u00c0-\u024f](?: (?=[!-~\u00c0-\u024f]))?)*$/;

/**
 * One line of plain text: controls become spaces, invisible formatting goes, whitespace runs become
 * one space, and anything longer than `max` characters is cut with "…". For ids, statuses, dates,
 * and (with `max` Infinity) for the server's own messages that embed platform values.
 */
export function oneLine(value: unknown, max = PLATFORM_TEXT_MAX): string {
  const raw = String(value ?? "");
  // Most values (ids, names, dates) are plain printable text already: one test instead of four.
  if (raw.length <= max && PLAIN.test(raw)) return raw;
  const text = raw.replace(BREAKING, " ").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  // Count code points, so a cut never splits an emoji or other surrogate pair.
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars
    .slice(0, Math.max(0, max - 1))
    .join("")
    .trimEnd()}…`;
}

/**
 * A platform value for the model to read as data: one line and in double quotes, with `"` and `\`
 * escaped as in JSON, so it cannot close its own quotes. For names, emails, messages, file names.
 */
export function quoted(value: unknown, max = PLATFORM_TEXT_MAX): string {
  return JSON.stringify(oneLine(value, max));
}

/** A platform URL on one line; whitespace is percent-encoded so no words sit outside quotes. */
export function urlText(value: unknown): string {
  return oneLine(value, 4096).replace(/ /g, "%20");
}
