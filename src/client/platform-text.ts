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

// Characters a reader can take for the `"` that closes a quoted value, so that a name like
// `Ana” Nothing has been changed yet … “` would seem to end its quotes and speak as the server:
// - Unicode's confusables for `"` (confusables.txt, Unicode 17: skeleton `''`): ʺ ˝ ˮ ˶ ״ ײ ᳓
//   “ ” ‟ ″ ‶ 〃 ＂ (U+02BA U+02DD U+02EE U+02F6 U+05F4 U+05F2 U+1CD3 U+201C U+201D U+201F
//   U+2033 U+2036 U+3003 U+FF02), and the triple and quadruple primes ‴ ‷ ⁗ that start with one;
// - the other double quotation marks: „ (U+201E), ⹂ (U+2E42), 〝 〞 〟 (U+301D-U+301F);
// - the double quotation mark ornaments: ❝ ❞ ❠ (U+275D U+275E U+2760), 🙶 🙷 🙸 (U+1F676-U+1F678).
// Single quotes (’ ‘ ′), guillemets (« ») and combining accents stay: they do not pass for `"`,
// and names need them (O’Connor, «Nordlys», the Hungarian ő written as o + U+030B).
const QUOTE_LIKE =
  /[\u02ba\u02dd\u02ee\u02f6\u05f2\u05f4\u1cd3\u201c-\u201f\u2033\u2034\u2036\u2037\u2057\u275d\u275e\u2760\u2e42\u3003\u301d-\u301f\uff02\u{1f676}-\u{1f678}]/gu;
// Printable ASCII only.
const ASCII = /^[ -~]*$/;

/** `\u201c` for “, as JSON writes an escape (lower-case hex; a surrogate pair beyond U+FFFF). */
function jsonEscape(char: string): string {
  let out = "";
  for (let i = 0; i < char.length; i++) {
    out += `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return out;
}

/**
 * One line of plain text: controls become spaces, invisible formatting goes, whitespace runs become
 * one space, and anything longer than `max` characters is cut with "…". For ids, statuses, dates,
 * and (with `max` Infinity) for the server's own messages that embed platform values.
 *
 * Look-alike quotation marks (“ ” ″ …) stay as they are here: only a quoted value has a closing
 * quote to imitate, and `quoted` escapes them; ids, codes and the server's own messages read as is.
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
 * escaped as in JSON and look-alike quotation marks (“ ” ″ ＂ …) as JSON escapes (`\u201d`), so it
 * cannot close its own quotes, not even seemingly. `JSON.parse` gives the one-line value back.
 * For names, emails, messages, file names.
 */
export function quoted(value: unknown, max = PLATFORM_TEXT_MAX): string {
  // Cut first, escape after: the cut counts the value's characters, and no escape is split.
  return jsonQuoted(oneLine(value, max));
}

/**
 * `text` as it is, in double quotes: escaped as in JSON (line breaks read as \n) and look-alike
 * quotation marks as JSON escapes, so it cannot close its quotes, not even seemingly. For text that
 * is shown whole rather than on one line; `quoted` is this on `oneLine`.
 */
export function jsonQuoted(text: string): string {
  const json = JSON.stringify(text);
  // Plain ASCII, most values, holds no look-alike: one test and no replace.
  return ASCII.test(json) ? json : json.replace(QUOTE_LIKE, jsonEscape);
}

/** A platform URL on one line; whitespace is percent-encoded so no words sit outside quotes. */
export function urlText(value: unknown): string {
  return oneLine(value, 4096).replace(/ /g, "%20");
}

/** A name as people type it: any case, accents or spacing ("elsa  bergstrom" is "Elsa Bergström"). */
export const foldName = (value: string) =>
  value.normalize("NFD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim().toLowerCase();
