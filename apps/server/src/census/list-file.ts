// Reads a company list line by line (flat memory whatever its length) and judges each line on its own: a CSV with
// a header (`domain` required; `name`, `category`, `website` optional), or a ranked list in the Tranco format
// (`rank,domain`, no header). The format is told by the first line: two fields the first of which is a number is a
// Tranco line, anything else must be a header. Fields follow RFC 4180 within a line (quotes, doubled quotes); a
// quoted field may not span lines (no company's name or domain needs a line break, and a line stays a line number).
import * as fs from 'node:fs';
import * as readline from 'node:readline';
import { normalizeCompanyDomain } from './domain';
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
  /** `--top N`: read the first N data lines only. */
  top: number | null;
}

export interface ListProgress {
  bytesRead: number;
  bytesTotal: number;
}

export const MAX_NAME = 200;
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
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  let layout: Layout | null = null;
  let dataLines = 0;
  try {
    for await (const raw of lines) {
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
        : judge(lineNo, fields, layout, rules);
    }
  } finally {
    progress?.({ bytesRead: stream.bytesRead, bytesTotal });
    lines.close();
    stream.destroy();
  }
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
        error: `the header names an unknown column ${JSON.stringify(field.trim().slice(0, 40))}: a CSV list has a header with domain and any of ${COLUMNS.slice(1).join(', ')}; a Tranco list is rank,domain lines without a header`,
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
    if (!TRANCO_RANK.test(fields[0].trim())) return refuse(`the rank ${JSON.stringify(fields[0].slice(0, 20))} is not a positive whole number`);
    const domain = normalizeCompanyDomain(fields[1]);
    if (!domain.ok) return refuse(domain.reason);
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
    if (id === undefined) return refuse(`unknown category ${JSON.stringify(slug.slice(0, 60))} (${knownCategories(rules.categories)})`, listed);
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
