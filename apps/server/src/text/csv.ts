// The one CSV writer: every CSV the server writes (the open dataset, `npm run export`, `companies list`, the feedback
// reports' export) passes its cells here. Names, categories and reports are other people's words, and a spreadsheet
// runs a cell that begins with a formula character: `=HYPERLINK(...)`, `+cmd|' /C calc'!A0`, `@SUM(1+1)`, `-2+3`.
// OWASP's CSV-injection rule: such a cell (and one that begins with a tab or a carriage return, which some readers
// trim to reach the formula, or with a full-width variant that some spreadsheets fold) gets a leading single quote,
// shown by a spreadsheet as text and never evaluated, and is quoted. Everything else is RFC 4180: a cell holding a
// comma, a quote or a line break is quoted, its quotes doubled. Numbers and the fixed words of a column (statuses,
// grades, ISO times) are written by their callers as they are; a negative number is never a text cell here.
// Hand-written rather than csv-stringify: the dataset writes a million rows of ~70 cells, and the library cost 4-5
// times as much (open-data/dataset.ts); its `escape_formulas` follows the same rule.

const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const NEEDS_QUOTES = /[",\r\n]/;
/** A cell csvCell neutralised: the single quote, then what made it look like a formula. */
const NEUTRALISED = new RegExp(`^'${FORMULA_START.source.slice(1)}`);

/** One text cell: neutralised if a spreadsheet would read it as a formula, quoted where RFC 4180 needs it. */
export function csvCell(value: string): string {
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One line of text cells, CRLF after it (RFC 4180). */
export const csvRow = (cells: readonly string[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * A cell as it was before csvCell neutralised it: the importers read our own CSV back (a `companies list` file is an
 * import file), so a leading single quote before a formula character is taken off again.
 */
export const csvCellValue = (cell: string): string => (NEUTRALISED.test(cell) ? cell.slice(1) : cell);
