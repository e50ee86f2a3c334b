// The operator's population commands over a Runtime: import a list, add, remove, rename, move, list, rescan.
// Data goes to `out` (stdout), messages and progress to `info` (stderr). A command is checked in full before the
// database opens (usage errors are instant); refused input (a bad line, an unknown domain or category) exits 1 with
// nothing changed, a usage or environment problem exits 2.
import { once } from 'node:events';
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import type { Runtime } from '../runtime';
import { normalizeCompanyDomain, unreachableDomain } from '../census/domain';
import { importCompanyList, ImportRefused, type CompanySource, type ImportReport } from '../census/import';
import { knownCategories, MAX_NAME, websiteProblem } from '../census/list-file';
import { count, duration, Progress } from '../census/progress';
import { rescanCompanies } from '../census/rescan';
import { csvRow } from '../text/csv';
import {
  addCompany, categoryMap, companyPages, countSelection, moveCompanies, removeCompanies, renameCompany, unknownDomains,
  type RosterCompany, type Selection,
} from '../census/roster';

/** Usage or environment: exit 2. */
export class UsageError extends Error {}
/** Refused input, nothing changed: exit 1. */
export class RefusedError extends Error {}
/** The environment stopped the work (the scan queue is full): exit 2, without the usage hint. */
export class EnvironmentError extends Error {}

export const USAGE = `Usage: npm run companies -- <command> [options]

  import FILE [--top N] [--category SLUG] [--source curated|community] [--prune] [--skip-invalid]
      A UTF-8 CSV with a header (domain required; name, category, website optional) or a ranked list in the
      Tranco format (rank,domain lines, no header). Prints added / updated / unchanged (/ removed) counts;
      importing the same file again changes nothing. --top N reads the first N data lines. --category: the
      category of rows that name none. --source (default curated): the population the companies join. --prune
      removes EVERY curated company the list does not name, the seeded ones included (their scans stay readable
      by scan id). A file with refused lines imports nothing unless --skip-invalid; a domain no scan may reach
      (loopback, private or link-local addresses, localhost) is refused unless SCAN_ALLOW_PRIVATE_NETWORKS. An
      empty file, or one that is not UTF-8 text (UTF-16, binary), imports nothing even with --skip-invalid.
  add DOMAIN [--name TEXT] [--website URL] [--category SLUG] [--source curated|community]
  remove DOMAIN...
  rename DOMAIN NAME
  move DOMAIN... --category SLUG|none
  list [--category SLUG] [--source curated|community] [--format csv|json]      (default csv)
  rescan DOMAIN... | --category SLUG | --stale DAYS | --all  [--source curated|community] [--wait]
      Starts (or joins) a scan of each company's website, as the API does, while the scan queue has room
      (SCAN_QUEUE_LIMIT); --wait waits for room instead of stopping. --stale DAYS: never scanned, or not for DAYS
      days. Prints domain, scan id and started|joined per company.

Domains are written as operation 3 reads them: lower case, IDN as ASCII (xn--), no trailing dot; a URL stands
for its host. Uses the same environment as \`npm start\` (DATABASE_URL, or the embedded database in DATA_DIR, which
one process at a time may open: stop the server first). Running API processes on PostgreSQL see every change
within seconds, without a restart.
Exit codes: 0 done, 1 refused input (nothing changed), 2 usage or environment error.
Data on stdout: \`npm run -s companies -- list > companies.csv\` (npm prints its "> script" banner on stdout without -s).
`;

type Values = Record<string, string | boolean | undefined>;

export interface CompaniesCommand {
  name: string;
  args: string[];
  values: Values;
}

const OPTIONS = {
  top: { type: 'string' },
  category: { type: 'string' },
  source: { type: 'string' },
  prune: { type: 'boolean' },
  'skip-invalid': { type: 'boolean' },
  format: { type: 'string' },
  name: { type: 'string' },
  website: { type: 'string' },
  stale: { type: 'string' },
  all: { type: 'boolean' },
  wait: { type: 'boolean' },
} as const;

const ALLOWED: Record<string, string[]> = {
  import: ['top', 'category', 'source', 'prune', 'skip-invalid'],
  add: ['name', 'website', 'category', 'source'],
  remove: [],
  rename: [],
  move: ['category'],
  list: ['category', 'source', 'format'],
  rescan: ['category', 'stale', 'all', 'source', 'wait'],
};

const MAX_TOP = 100_000_000;
const MAX_STALE_DAYS = 36_500;

/** Parses and checks a command without a database. */
export function parseCompaniesCommand(argv: string[]): CompaniesCommand {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS }) as { values: Values; positionals: string[] };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const [name = '', ...args] = parsed.positionals;
  const { values } = parsed;
  const allowed = ALLOWED[name];
  if (!allowed) throw new UsageError(`Unknown command "${name}".`);
  const extra = Object.keys(values).filter((o) => values[o] !== undefined && !allowed.includes(o));
  if (extra.length > 0) throw new UsageError(`"${name}" does not take --${extra.join(', --')}.`);
  if (values.source !== undefined) sourceOf(values);
  if (values.format !== undefined && values.format !== 'csv' && values.format !== 'json') throw new UsageError('--format must be csv or json.');
  switch (name) {
    case 'import':
      if (args.length !== 1) throw new UsageError('import takes exactly one file.');
      if (values.top !== undefined) intOf(values.top as string, 1, MAX_TOP, '--top');
      if (values.prune && sourceOf(values) !== 'curated') throw new UsageError('--prune removes curated companies: it goes with --source curated only.');
      try {
        if (!fs.statSync(args[0]).isFile()) throw new UsageError(`${args[0]} is not a file.`);
        fs.accessSync(args[0], fs.constants.R_OK);
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`Cannot read ${args[0]}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : ((err as NodeJS.ErrnoException).code ?? 'unreadable')}.`);
      }
      break;
    case 'add':
      if (args.length !== 1) throw new UsageError('add takes exactly one domain.');
      break;
    case 'remove':
      if (args.length === 0) throw new UsageError('remove takes one or more domains.');
      break;
    case 'rename':
      if (args.length !== 2) throw new UsageError('rename takes a domain and the new name: rename example.com "Example Inc."');
      break;
    case 'move':
      if (args.length === 0) throw new UsageError('move takes one or more domains.');
      if (values.category === undefined) throw new UsageError('move needs --category SLUG (or --category none).');
      break;
    case 'list':
      if (args.length !== 0) throw new UsageError('list takes no argument (filter with --category or --source).');
      break;
    case 'rescan': {
      const selectors = [args.length > 0, values.category !== undefined, values.stale !== undefined, values.all === true].filter(Boolean).length;
      if (selectors !== 1) throw new UsageError('rescan takes domains, or exactly one of --category SLUG, --stale DAYS, --all.');
      if (values.source !== undefined && args.length > 0) throw new UsageError('--source filters --category, --stale or --all, not named domains.');
      if (values.stale !== undefined) intOf(values.stale as string, 0, MAX_STALE_DAYS, '--stale');
      break;
    }
  }
  return { name, args, values };
}

export async function runCompaniesCommand(runtime: Runtime, command: CompaniesCommand, out: Writable, info: Writable & { isTTY?: boolean }): Promise<void> {
  const { name, args, values } = command;
  const say = (line: string) => info.write(`${line}\n`);
  const { db } = runtime;
  const categories = await categoryMap(db);
  const category = (option: string | undefined): string | null => {
    if (option === undefined) return null;
    const id = categories.get(option.toLowerCase());
    if (id === undefined) throw new RefusedError(`Unknown category "${option}" (${knownCategories(categories)}).`);
    return id;
  };

  switch (name) {
    case 'import': {
      const progress = new Progress(info, 'import', { tty: info.isTTY === true });
      let stepAt = Date.now();
      const top = values.top === undefined ? null : intOf(values.top as string, 1, MAX_TOP, '--top');
      const report = await importCompanyList(
        db,
        {
          file: args[0],
          top,
          categories,
          defaultCategoryId: category(values.category as string | undefined),
          anyPort: runtime.config.scan.allowPrivateNetworks,
          allowPrivateNetworks: runtime.config.scan.allowPrivateNetworks,
          source: sourceOf(values),
          prune: values.prune === true,
          skipInvalid: values['skip-invalid'] === true,
        },
        {
          refused: (line, reason) => progress.note(`line ${line}: ${reason}`),
          // How far: through the file, or through the first N lines of it (whichever ends first).
          reading: (rows, p) => progress.update(rows, Math.max(top ? rows / top : 0, p.bytesTotal > 0 ? p.bytesRead / p.bytesTotal : 0)),
          step: (done) => {
            progress.note(`import: ${done} in ${duration((Date.now() - stepAt) / 1000)}`);
            stepAt = Date.now();
          },
        },
      ).catch((err) => {
        if (err instanceof ImportRefused) throw new RefusedError(err.message);
        throw err;
      });
      await write(out, `${JSON.stringify(importCounts(report))}\n`);
      if (!report.imported) {
        progress.finish(`Nothing imported: ${count(report.refused)} of ${count(report.read)} lines refused (listed above with their line numbers). Correct them, or import the other lines with --skip-invalid`, report.read);
        throw new RefusedError('');
      }
      progress.finish(importSentence(report), report.read);
      // Deleted rows leave no change_version to catch up from: every API process rebuilds its index instead.
      if (report.removed > 0) await runtime.changes.publish();
      return;
    }
    case 'add': {
      const domain = domainOf(args[0]);
      const unreachable = unreachableDomain(domain, runtime.config.scan.allowPrivateNetworks);
      if (unreachable) throw new RefusedError(`Not added: ${unreachable}.`);
      const website = (values.website as string | undefined) ?? `https://${domain.includes(':') ? `[${domain}]` : domain}`;
      const problem = websiteProblem(website, domain, runtime.config.scan.allowPrivateNetworks);
      if (problem) throw new RefusedError(`Not added: ${problem}.`);
      const name = nameOf((values.name as string | undefined) ?? domain);
      const added = await addCompany(db, { domain, name, website, categoryId: category(values.category as string | undefined), source: sourceOf(values) });
      if (!added) throw new RefusedError(`${domain} is listed already (change it with rename or move).`);
      await write(out, `${JSON.stringify({ domain, name, website, category: (values.category as string | undefined)?.toLowerCase() ?? null, source: sourceOf(values) })}\n`);
      say(`Added ${domain}: readable now by operation 3 (GET /v1/leaderboard/companies/${domain}), ranked once scanned (npm run companies -- rescan ${domain}).`);
      return;
    }
    case 'remove': {
      const domains = await knownDomainsOf(runtime, args);
      const removed = await removeCompanies(db, domains);
      for (const domain of removed) await write(out, `${domain}\n`);
      if (removed.length > 0) await runtime.changes.publish();
      say(`Removed ${count(removed.length)} compan${removed.length === 1 ? 'y' : 'ies'}; their scans stay readable by scan id.`);
      return;
    }
    case 'rename': {
      const [domain] = await knownDomainsOf(runtime, [args[0]]);
      const name = nameOf(args[1]);
      const ids = await renameCompany(db, domain, name);
      if (ids.length > 0) await runtime.changes.publish({ kind: 'ids', ids });
      say(ids.length > 0 ? `Renamed ${domain} to "${name}".` : `${domain} is already named "${name}": nothing changed.`);
      return;
    }
    case 'move': {
      const domains = await knownDomainsOf(runtime, args);
      const slug = (values.category as string).toLowerCase();
      const categoryId = slug === 'none' && !categories.has('none') ? null : category(slug);
      const ids = await moveCompanies(db, domains, categoryId);
      if (ids.length > 0) await runtime.changes.publish({ kind: 'ids', ids });
      say(`Moved ${count(ids.length)} of ${count(domains.length)} compan${domains.length === 1 ? 'y' : 'ies'} to ${categoryId ? slug : 'no category'}${ids.length < domains.length ? ' (the others were there already)' : ''}.`);
      return;
    }
    case 'list': {
      const selection: Selection = { categoryId: category(values.category as string | undefined) ?? undefined, source: values.source === undefined ? undefined : sourceOf(values) };
      const format = (values.format as 'csv' | 'json' | undefined) ?? 'csv';
      let listed = 0;
      if (format === 'csv') await write(out, csvRow(LIST_COLUMNS));
      else await write(out, '[');
      for await (const page of companyPages(db, selection)) {
        if (format === 'csv') await write(out, page.map((c) => csvRow(listRow(c))).join(''));
        else await write(out, page.map((c, i) => `${listed + i === 0 ? '' : ','}\n${JSON.stringify(listObject(c))}`).join(''));
        listed += page.length;
      }
      if (format === 'json') await write(out, listed === 0 ? ']\n' : '\n]\n');
      say(`Listed ${count(listed)} compan${listed === 1 ? 'y' : 'ies'}.`);
      return;
    }
    case 'rescan': {
      const selection: Selection = {};
      if (args.length > 0) selection.domains = await knownDomainsOf(runtime, args);
      if (values.category !== undefined) selection.categoryId = category(values.category as string)!;
      if (values.stale !== undefined) selection.scannedBefore = new Date(runtime.clock().getTime() - intOf(values.stale as string, 0, MAX_STALE_DAYS, '--stale') * 86_400_000);
      if (values.source !== undefined) selection.source = sourceOf(values);
      const total = await countSelection(db, selection);
      const progress = new Progress(info, 'rescan', { tty: info.isTTY === true });
      let done = 0;
      let toldFull = false;
      const report = await rescanCompanies(runtime, selection, total, { wait: values.wait === true }, {
        queued: (company, scanId, started) => {
          done += 1;
          out.write(`${company.domain}\t${scanId}\t${started ? 'started' : 'joined'}\n`);
          progress.update(done, total > 0 ? done / total : null, 'companies');
        },
        skipped: (company, reason) => {
          done += 1;
          progress.note(`${company.domain}: skipped: ${reason}`);
        },
        full: () => {
          if (!toldFull) progress.note(`rescan: the scan queue is full (SCAN_QUEUE_LIMIT ${runtime.config.scan.queueLimit}); waiting for room`);
          toldFull = true;
        },
      });
      const parts = [`${count(report.started)} started`, `${count(report.joined)} joined (already being scanned)`];
      if (report.skipped) parts.push(`${count(report.skipped)} skipped`);
      progress.finish(`Rescan of ${count(total)} compan${total === 1 ? 'y' : 'ies'}: ${parts.join(', ')}`, done, 'companies');
      if (runtime.db.kind === 'pglite' && report.started > 0) say('The scans wait in the queue of the embedded database: `npm start` (or `npm run worker`) runs them.');
      if (report.notQueued > 0) {
        throw new EnvironmentError(
          `The scan queue is full (SCAN_QUEUE_LIMIT ${runtime.config.scan.queueLimit} waiting scans): ${count(report.notQueued)} compan${report.notQueued === 1 ? 'y was' : 'ies were'} not queued. What was queued stays queued; run the command again later, add --wait to wait for room, or raise SCAN_QUEUE_LIMIT.`,
        );
      }
      return;
    }
  }
}

export const LIST_COLUMNS = ['domain', 'name', 'category', 'website', 'source', 'score', 'grade', 'scanned_at'] as const;

function listRow(c: RosterCompany): string[] {
  return [c.domain, c.name, c.category ?? '', c.website, c.source, c.score === null ? '' : String(c.score), c.grade ?? '', c.scannedAt?.toISOString() ?? ''];
}

function listObject(c: RosterCompany) {
  return { domain: c.domain, name: c.name, category: c.category, website: c.website, source: c.source, score: c.score, grade: c.grade, scannedAt: c.scannedAt?.toISOString() ?? null };
}

function importCounts(r: ImportReport) {
  return { imported: r.imported, read: r.read, listed: r.listed, added: r.added, updated: r.updated, unchanged: r.unchanged, removed: r.removed, refused: r.refused };
}

function importSentence(r: ImportReport): string {
  const changed = r.added + r.updated + r.removed;
  const refused = r.refused ? `; ${count(r.refused)} refused line${r.refused === 1 ? '' : 's'} skipped` : '';
  if (changed === 0) return `Nothing changed: the ${count(r.listed)} compan${r.listed === 1 ? 'y' : 'ies'} listed ${r.listed === 1 ? 'is' : 'are'} already as the list says${refused}`;
  const removed = r.removed
    ? `, ${count(r.removed)} removed (${r.removedSample.join(', ')}${r.removed > r.removedSample.length ? ', ...' : ''}; their scans stay readable by scan id)`
    : '';
  return `Imported ${count(r.listed)} compan${r.listed === 1 ? 'y' : 'ies'}: ${count(r.added)} added, ${count(r.updated)} updated, ${count(r.unchanged)} unchanged${removed}${refused}`;
}

function sourceOf(values: Values): CompanySource {
  const source = (values.source as string | undefined) ?? 'curated';
  if (source !== 'curated' && source !== 'community') throw new UsageError('--source must be curated or community.');
  return source;
}

function intOf(raw: string, min: number, max: number, option: string): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UsageError(`${option} must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`);
  return value;
}

function domainOf(raw: string): string {
  const domain = normalizeCompanyDomain(raw);
  if (!domain.ok) throw new RefusedError(`${domain.reason.charAt(0).toUpperCase()}${domain.reason.slice(1)}.`);
  return domain.domain;
}

function nameOf(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > MAX_NAME) throw new RefusedError(`A name is 1 to ${MAX_NAME} characters.`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new RefusedError('A name may not hold control characters.');
  return name;
}

/** The normalized domains, every one of which must name a company (else nothing is done). */
async function knownDomainsOf(runtime: Runtime, raw: string[]): Promise<string[]> {
  const domains = [...new Set(raw.map(domainOf))];
  const unknown = await unknownDomains(runtime.db, domains);
  if (unknown.length > 0) throw new RefusedError(`No company ${unknown.join(', ')} (see: npm run companies -- list); nothing was changed.`);
  return domains;
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}
