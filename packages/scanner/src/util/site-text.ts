// The one door for what a scanned site says about itself (its name from og:site_name, JSON-LD, <title> or an MCP
// server's info): anyone can submit a scan of a site they control, so this text is an attacker's input that travels
// into the open dataset, the Markdown and HTML pages, the CLI's lists and the MCP tools. Here it becomes plain text:
// - Unicode NFC, so one name has one spelling (a search, a duplicate check and a reader see the same characters);
// - control characters (C0, DEL, C1), format characters (zero-width spaces and joiners, U+FEFF, the bidi marks,
//   embeddings, overrides and isolates that let "moc.evil" read as "live.com"), private-use code points and lone
//   surrogates removed: none of them is visible, and all of them can spoof or break an output (an emoji joined by
//   U+200D falls apart into its parts: a small price in a company's name);
// - every run of whitespace (tabs, line breaks, U+2028/9, no-break spaces) one space, the ends trimmed;
// - at most SITE_TEXT_MAX_LENGTH code points (never half a surrogate pair).
// Each output still escapes for its own format (CSV, Markdown, HTML): this only makes the text what a person reads.

/** The longest name kept, in code points: longer than any real company's, short enough for a table cell. */
export const SITE_TEXT_MAX_LENGTH = 120;

// Unicode's White_Space, spelled out: JavaScript's \s also counts U+FEFF, a zero-width character that goes.
const WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;

/** `text` as plain, visible, single-line text of at most `maxLength` code points; null when nothing visible is left. */
export function cleanSiteText(text: string | null | undefined, maxLength = SITE_TEXT_MAX_LENGTH): string | null {
  if (typeof text !== 'string') return null;
  // Whitespace first (a tab or a line break is a separator, not nothing), then what is invisible, then the spaces
  // that the removal brought together.
  const visible = text.normalize('NFC').replace(WHITESPACE, ' ').replace(INVISIBLE, '').replace(WHITESPACE, ' ').trim();
  if (!visible) return null;
  const codePoints = Array.from(visible);
  return codePoints.length <= maxLength ? visible : codePoints.slice(0, maxLength).join('').trimEnd();
}
