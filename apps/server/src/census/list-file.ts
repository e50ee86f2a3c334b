// Reads a company list line by line (flat memory whatever its length) and judges each line on its own: a CSV with
// a header (`domain` required; `name`, `category`, `website` optional), or a ranked list in the Tranco format
// (`rank,domain`, no header). The format is told by the first line: two fields the first of which is a number is a
// Tranco line, anything else must be a header. Fields follow RFC 4180 within a line (quotes, doubled quotes); a
// quoted field may not span lines (no company's name or domain needs a line break, and a line stays a line number).
//
// The file must be UTF-8 text: the bytes are checked before they are decoded (a UTF-16 byte-order mark, NUL bytes,
// a byte sequence that is not UTF-8, a line longer than any company's), and such a file stops the whole import
// (UnreadableList) with a sentence that names what it is, never its bytes. A domain no scan may reach (an address
// that is not public, `localhost`) is refused unless private scans are allowed (domain.ts, the scanner's rule).
import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { csvCellValue } from '../text/csv';
import { normalizeCompanyDomain, quoted, unreachableDomain } from './domain';
import { normalizeTarget } from '../scans/target';

export interface ListedCompany {
  line: number;
  domain: string;
  /** Null: not given (a new company is named after its domain; an existing one keeps its name). */
  name: string | null;
  website: string | null;
  categoryId: string | null;
}

export type ListEntry =
  | { kind: 'row'; row: ListedCompany }
  /** `domain` is set when the line named a valid domain: `--prune` must not remove a company whose line was refused. */
  | { kind: 'refused'; line: number; reason: string; domain: string | null };

export interface ListRules {
  /** Category slug -> id. */
  categories: ReadonlyMap<string, string>;
  /** `--category`: the category of rows that name none. */
  defaultCategoryId: string | null;
  /** Websites may name any port (SCAN_ALLOW_PRIVATE_NETWORKS, as for scans). */
  anyPort: boolean;
  /** Domains may be private, loopback or link-local addresses or `localhost` (SCAN_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: boolean;
  /** `--top N`: read the first N data lines only. */
  top: number | null;
}

export interface ListProgress {
  bytesRead: number;
  bytesTotal: number;
}

/** The file cannot be read as a company list at all (not UTF-8 text, empty): nothing of it is imported. */
export class UnreadableList extends Error {}

export const MAX_NAME = 200;
/** No company's line comes near this (a domain, a name, a website and a category); a longer one is not a list. */
const MAX_LINE_BYTES = 1 << 20;
export const MAX_WEBSITE = 2048;
/** The columns a header may name: the four a company has, and those `list --format csv` writes beside them. */
const COLUMNS = ['domain', 'name', 'category', 'website'] as const;
const IGNORED_COLUMNS = ['rank', 'source', 'score', 'grade', 'scanned_at'];
// C0 controls (NUL cannot even be stored), DEL, and lone surrogates.
const UNSTORABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const TRANCO_RANK = /^[1-9][0-9]{0,9}$/;

/** One line's fields, or the reason it cannot be split. */
export function splitCsvLine(line: string): string[] | { error: string } {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close === -1) return { error: 'a quoted field is not closed on its line (a field may not span lines)' };
        value += line.slice(i, close);
        if (line[close + 1] === '"') {
          value += '"';
          i = close + 2;
          continue;
        }
        i = close + 1;
        break;
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ',') return { error: 'text follows a closing quote (write a quote inside a quoted field as "")' };
      i += 1;
    } else {
      const comma = line.indexOf(',', i);
      const value = comma === -1 ? line.slice(i) : line.slice(i, comma);
      if (value.includes('"')) return { error: 'a quote inside an unquoted field (quote the whole field and double the quote)' };
      fields.push(value);
      if (comma === -1) return fields;
      i = comma + 1;
    }
  }
}

type Layout = { format: 'tranco' } | { format: 'csv'; columns: Map<string, number>; width: number };

export async function* readCompanyList(file: string, rules: ListRules, progress?: (p: ListProgress) => void): AsyncGenerator<ListEntry> {
  const bytesTotal = fs.statSync(file).size;
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  let lineNo = 0;
  let layout: Layout | null = null;
  let dataLines = 0;
  try {
    for await (const raw of textLines(stream)) {
      lineNo += 1;
      if (lineNo % 4096 === 0) progress?.({ bytesRead: stream.bytesRead, bytesTotal });
      const text = lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw;
      if (text.trim() === '') continue;
      const fields = splitCsvLine(text);
      if (!layout) {
        const found = layoutOf(fields);
        if ('error' in found) {
          yield { kind: 'refused', line: lineNo, reason: found.error, domain: null };
          return; // without a layout no other line can be read
        }
        layout = found;
        if (layout.format === 'csv') continue;
      }
      if (rules.top !== null && dataLines >= rules.top) return;
      dataLines += 1;
      yield 'error' in fields
        ? { kind: 'refused', line: lineNo, reason: fields.error, domain: null }
        // Our own CSV reads back as written: a `companies list` file is an import file, and the one CSV writer put a
        // single quote before a cell that begins with a formula character (text/csv.ts).
        : judge(lineNo, fields.map(csvCellValue), layout, rules);
    }
    if (!layout) throw new UnreadableList('the file is empty: a CSV list starts with a header naming a domain column; a Tranco list is rank,domain lines');
  } finally {
    progress?.({ bytesRead: stream.bytesRead, bytesTotal });
    stream.destroy();
  }
}

/**
 * The file's lines as text (line breaks CRLF, LF or CR, as readline splits them), each checked as UTF-8 before it
 * is decoded: a chunk is cut after its last line break (a break is one ASCII byte, so the cut never splits a
 * character), validated and decoded at once; only a chunk that fails is looked into line by line, to say which.
 */
async function* textLines(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let carried: Buffer = Buffer.alloc(0);
  let lineNo = 0; // lines yielded so far
  let first = true;
  let pendingCr = false; // the previous chunk ended with CR: a LF starting this one belongs to it
  const lines = function* (bytes: Buffer): Generator<string> {
    if (!isUtf8(bytes)) {
      let at = 0;
      for (const part of splitBreaks(bytes)) {
        if (!isUtf8(part)) break;
        at += 1;
      }
      throw new UnreadableList(`line ${lineNo + 1 + at} is not UTF-8 text (a byte sequence no UTF-8 decoder reads: a Latin-1 or Windows-1252 export?): save the list as UTF-8`);
    }
    for (const part of bytes.toString('utf8').split(/\r\n|\n|\r/)) {
      lineNo += 1;
      yield part;
    }
  };
  for await (const chunk of stream) {
    let data: Buffer = carried.length > 0 ? Buffer.concat([carried, chunk]) : chunk;
    if (first && data.length >= 2) {
      first = false;
      if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
        throw new UnreadableList('the file is UTF-16 text (it begins with a UTF-16 byte-order mark), not UTF-8: save the list as UTF-8 (in a spreadsheet: CSV UTF-8)');
      }
    }
    if (pendingCr && data[0] === 0x0a) data = data.subarray(1);
    pendingCr = false;
    const nul = data.indexOf(0);
    if (nul !== -1) {
      throw new UnreadableList(`line ${lineNo + 1 + countBreaks(data.subarray(0, nul))} holds NUL bytes: the file is binary or UTF-16, not UTF-8 text (save the list as UTF-8 CSV)`);
    }
    const last = lastBreak(data);
    if (last === -1) {
      carried = data;
    } else if (data[last] === 0x0d && last === data.length - 1) {
      // A CR ends the chunk: its line is complete, and a LF starting the next chunk is part of this break.
      yield* lines(data.subarray(0, last));
      pendingCr = true;
      carried = Buffer.alloc(0);
    } else {
      yield* lines(data.subarray(0, data[last] === 0x0a && last > 0 && data[last - 1] === 0x0d ? last - 1 : last));
      carried = Buffer.from(data.subarray(last + 1));
    }
    if (carried.length > MAX_LINE_BYTES) throw new UnreadableList(`line ${lineNo + 1} is longer than 1 MiB: this is not a company list`);
  }
  if (carried.length > 0) yield* lines(carried);
}

function lastBreak(data: Buffer): number {
  return Math.max(data.lastIndexOf(0x0a), data.lastIndexOf(0x0d));
}

function countBreaks(bytes: Buffer): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) n += 1;
    else if (bytes[i] === 0x0d) n += bytes[i + 1] === 0x0a ? 0 : 1;
  }
  return n;
}

function* splitBreaks(bytes: Buffer): Generator<Buffer> {
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a || bytes[i] === 0x0d) {
      yield bytes.subarray(start, i);
      if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) i += 1;
      start = i + 1;
    }
  }
  yield bytes.subarray(start);
}

function layoutOf(fields: string[] | { error: string }): Layout | { error: string } {
  if ('error' in fields) return { error: `the first line cannot be read: ${fields.error}` };
  if (fields.length === 2 && TRANCO_RANK.test(fields[0].trim())) return { format: 'tranco' };
  const columns = new Map<string, number>();
  for (const [i, field] of fields.entries()) {
    const name = field.trim().toLowerCase();
    if (columns.has(name)) return { error: `the header names the column "${name}" twice` };
    if (!(COLUMNS as readonly string[]).includes(name) && !IGNORED_COLUMNS.includes(name)) {
      return {
        error: `the header names an unknown column ${quoted(field.trim(), 40)}: a CSV list has a header with domain and any of ${COLUMNS.slice(1).join(', ')}; a Tranco list is rank,domain lines without a header`,
      };
    }
    columns.set(name, i);
  }
  if (!columns.has('domain')) {
    return { error: 'the first line is neither a header naming a domain column nor a Tranco line (rank,domain)' };
  }
  return { format: 'csv', columns, width: fields.length };
}

function judge(line: number, fields: string[], layout: Layout, rules: ListRules): ListEntry {
  const refuse = (reason: string, domain: string | null = null): ListEntry => ({ kind: 'refused', line, reason, domain });
  if (layout.format === 'tranco') {
    if (fields.length !== 2) return refuse(`a Tranco line is rank,domain: found ${fields.length} fields`);
    if (!TRANCO_RANK.test(fields[0].trim())) return refuse(`the rank ${quoted(fields[0], 20)} is not a positive whole number`);
    const domain = normalizeCompanyDomain(fields[1]);
    if (!domain.ok) return refuse(domain.reason);
    const unreachable = unreachableDomain(domain.domain, rules.allowPrivateNetworks);
    if (unreachable) return refuse(unreachable, domain.domain);
    return { kind: 'row', row: { line, domain: domain.domain, name: null, website: null, categoryId: rules.defaultCategoryId } };
  }
  if (fields.length !== layout.width) return refuse(`the header has ${layout.width} columns, this line ${fields.length} fields`);
  const field = (name: string): string | null => {
    const at = layout.columns.get(name);
    const value = at === undefined ? '' : fields[at].trim();
    return value === '' ? null : value;
  };
  const domain = normalizeCompanyDomain(fields[layout.columns.get('domain')!]);
  if (!domain.ok) return refuse(domain.reason);
  const listed = domain.domain;
  const unreachable = unreachableDomain(listed, rules.allowPrivateNetworks);
  if (unreachable) return refuse(unreachable, listed);
  const name = field('name');
  if (name !== null && name.length > MAX_NAME) return refuse(`the name is longer than ${MAX_NAME} characters`, listed);
  if (name !== null && UNSTORABLE.test(name)) return refuse('the name holds a control character or a lone surrogate', listed);
  const website = field('website');
  if (website !== null) {
    const problem = websiteProblem(website, listed, rules.anyPort);
    if (problem) return refuse(problem, listed);
  }
  const slug = field('category');
  let categoryId = rules.defaultCategoryId;
  if (slug !== null) {
    const id = rules.categories.get(slug.toLowerCase());
    if (id === undefined) return refuse(`unknown category ${quoted(slug, 60)} (${knownCategories(rules.categories)})`, listed);
    categoryId = id;
  }
  return { kind: 'row', row: { line, domain: listed, name, website, categoryId } };
}

/** Why a website cannot be a company's: not a scannable URL, or its scans would rank another domain. */
export function websiteProblem(website: string, domain: string, anyPort: boolean): string | null {
  if (website.length > MAX_WEBSITE) return `the website is longer than ${MAX_WEBSITE} characters`;
  if (UNSTORABLE.test(website) || /\s/.test(website)) return 'the website holds a space or a control character';
  const target = normalizeTarget(website, { anyPort });
  if (!target.ok) return `the website cannot be scanned: ${target.reason.replace(/\.$/, '')}`;
  if (target.value.domain !== domain) return `the website's scans would rank ${target.value.domain}, not ${domain}`;
  return null;
}

export function knownCategories(categories: ReadonlyMap<string, string>): string {
  const slugs = [...categories.keys()].sort();
  if (slugs.length === 0) return 'there are no categories';
  return `categories: ${slugs.slice(0, 12).join(', ')}${slugs.length > 12 ? `, and ${slugs.length - 12} more` : ''}`;
}
