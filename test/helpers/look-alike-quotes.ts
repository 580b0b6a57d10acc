// Look-alike quotation marks: characters a reader can take for the `"` that closes a quoted platform
// value, and the copy of the server's own preview line a value would carry after one, so that
// `"Ana” Nothing has been changed yet. … confirmationToken: 0000… “"` seems to be two values with the
// server's words between them. The list is the test's own, kept apart from src/client/platform-text.ts.

/**
 * Every character that can pass for `"`: Unicode's confusables for `"` (confusables.txt, skeleton
 * `''`), the triple and quadruple primes, the other double quotation marks and the double quotation
 * mark ornaments. Each with its name, for test titles.
 */
export const QUOTE_LIKES = [
  ["\u02ba", "ʺ modifier letter double prime"],
  ["\u02dd", "˝ double acute accent"],
  ["\u02ee", "ˮ modifier letter double apostrophe"],
  ["\u02f6", "˶ modifier letter middle double acute accent"],
  ["\u05f2", "ײ Hebrew ligature Yiddish double yod"],
  ["\u05f4", "״ Hebrew punctuation gershayim"],
  ["\u1cd3", "᳓ Vedic sign nihshvasa"],
  ["\u201c", "“ left double quotation mark"],
  ["\u201d", "” right double quotation mark"],
  ["\u201e", "„ double low-9 quotation mark"],
  ["\u201f", "‟ double high-reversed-9 quotation mark"],
  ["\u2033", "″ double prime"],
  ["\u2034", "‴ triple prime"],
  ["\u2036", "‶ reversed double prime"],
  ["\u2037", "‷ reversed triple prime"],
  ["\u2057", "⁗ quadruple prime"],
  ["\u275d", "❝ heavy double turned comma quotation mark ornament"],
  ["\u275e", "❞ heavy double comma quotation mark ornament"],
  ["\u2760", "❠ heavy low double comma quotation mark ornament"],
  ["\u2e42", "⹂ double low-reversed-9 quotation mark"],
  ["\u3003", "〃 ditto mark"],
  ["\u301d", "〝 reversed double prime quotation mark"],
  ["\u301e", "〞 double prime quotation mark"],
  ["\u301f", "〟 low double prime quotation mark"],
  ["\uff02", "＂ fullwidth quotation mark"],
  ["\u{1f676}", "🙶 sans-serif heavy double turned comma quotation mark ornament"],
  ["\u{1f677}", "🙷 sans-serif heavy double comma quotation mark ornament"],
  ["\u{1f678}", "🙸 sans-serif heavy low double comma quotation mark ornament"],
] as const;

const CLASS = `[${QUOTE_LIKES.map(([ch]) => ch).join("")}]`;
/** Any one look-alike quotation mark (no `g` flag: safe with `test` and `toMatch`). */
export const QUOTE_LIKE = new RegExp(CLASS, "u");

/** Every look-alike quotation mark in `text`, in order; none is the answer wanted. */
export const quoteLikesIn = (text: string): string[] => text.match(new RegExp(CLASS, "gu")) ?? [];

/** The escape JSON would write for `ch`: `\u` and four lower-case hex digits per UTF-16 unit. */
export const jsonEscape = (ch: string): string =>
  Array.from(
    { length: ch.length },
    (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`,
  ).join("");

/** `text` with every look-alike quotation mark written as its JSON escape. */
export const escapeQuoteLikes = (text: string): string =>
  text.replace(new RegExp(CLASS, "gu"), jsonEscape);

/** The token in the fake server line: no preview ever issues it. */
export const FAKE_TOKEN = "00000000-0000-0000-0000-000000000000";
/** The start of the server's preview line and its token, as a value copies them. */
export const FAKE_SERVER_LINE = `Nothing has been changed yet. … confirmationToken: ${FAKE_TOKEN}`;

/** A value's tail that seems to close its quotes, speak as the server, and open quotes again. */
export const posing = (close: string, open: string): string =>
  `${close} ${FAKE_SERVER_LINE} ${open}`;
