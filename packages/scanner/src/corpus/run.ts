import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LookupFn } from '../fetch/resolve';
import { scan } from '../scan/scan';
import type { CheckStatus } from '../types';
import { startFileSite } from './file-site';
import { CHECKS_BY_KIND, CORPUS_KINDS, type CorpusKind, defaultContentType, kindOf } from './kinds';

export interface CorpusFile {
  /** Path relative to the folder, with forward slashes. */
  file: string;
  kind: CorpusKind;
  bytes: Buffer;
  contentType: string;
}

export interface CorpusRow {
  file: string;
  kind: CorpusKind;
  check: string;
  /** A check status, or the scan's ending when the scan did not finish. */
  status: CheckStatus | 'failed_scan' | 'interrupted' | 'sign_in_required';
  detail: string;
}

/** Files at most, so a wrong folder (a home directory) ends quickly with a clear message. */
export const MAX_CORPUS_FILES = 2000;
const SKIPPED = new Set(['manifest.json', 'readme.md']);

interface ManifestEntry {
  kind?: unknown;
  file?: unknown;
  content_type?: unknown;
}

/**
 * The files of a folder with their kinds: from its manifest.json when it has one (`files: [{kind, file,
 * content_type}]`, paths relative to the folder), else every file below it whose path or content says its kind.
 */
export async function listCorpusFiles(folder: string): Promise<{ files: CorpusFile[]; skipped: string[] }> {
  const manifest = await readFile(path.join(folder, 'manifest.json'), 'utf8').then(
    (text) => JSON.parse(text) as { files?: ManifestEntry[] },
    () => null,
  );
  const files: CorpusFile[] = [];
  const skipped: string[] = [];
  if (manifest && Array.isArray(manifest.files)) {
    for (const entry of manifest.files.slice(0, MAX_CORPUS_FILES)) {
      const kind = CORPUS_KINDS.find((k) => k === entry.kind);
      if (!kind || typeof entry.file !== 'string') {
        skipped.push(String(entry.file ?? '(no file)'));
        continue;
      }
      const bytes = await readFile(path.resolve(folder, entry.file));
      const contentType = typeof entry.content_type === 'string' && entry.content_type ? entry.content_type : defaultContentType(kind, bytes.toString('utf8'));
      files.push({ file: entry.file, kind, bytes, contentType });
    }
    return { files, skipped };
  }
  for (const relative of await walk(folder)) {
    const bytes = await readFile(path.join(folder, relative));
    const body = bytes.toString('utf8');
    const kind = kindOf(relative, body);
    if (!kind) {
      skipped.push(relative);
      continue;
    }
    files.push({ file: relative, kind, bytes, contentType: defaultContentType(kind, body) });
  }
  return { files, skipped };
}

async function walk(folder: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(path.join(folder, prefix), { withFileTypes: true });
  for (const entry of entries.sort((x, y) => x.name.localeCompare(y.name))) {
    if (entry.name.startsWith('.')) continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await walk(folder, relative)));
    else if (entry.isFile() && !SKIPPED.has(entry.name.toLowerCase())) found.push(relative);
    if (found.length > MAX_CORPUS_FILES) throw new Error(`More than ${MAX_CORPUS_FILES} files under ${folder}: point the command at a corpus folder`);
  }
  return found;
}

/** Only names of this machine resolve: nothing a served file names elsewhere is even looked up. */
const loopbackLookup: LookupFn = async (hostname) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
  throw new Error('only loopback names are resolved by the corpus command');
};

/** Scans one file from its own loopback site and keeps the verdicts of the checks that judge its kind. */
export async function scanCorpusFile(file: CorpusFile): Promise<CorpusRow[]> {
  const site = await startFileSite(file);
  try {
    const result = await scan(`${site.origin}/`, {
      fetchPolicy: { allowPrivateNetworks: true, loopbackOnly: true, lookup: loopbackLookup, requestTimeoutMs: 5000, scanBudgetMs: 20000 },
      maxPages: 1,
    });
    if (result.ending !== 'finished' && result.checks.length === 0) {
      const status = result.ending === 'failed' ? 'failed_scan' : result.ending;
      return CHECKS_BY_KIND[file.kind].map((check) => ({ file: file.file, kind: file.kind, check, status, detail: result.cause ?? '' }));
    }
    return CHECKS_BY_KIND[file.kind].map((id) => {
      const check = result.checks.find((c) => c.id === id);
      return { file: file.file, kind: file.kind, check: id, status: check?.status ?? 'couldnt_check', detail: check?.evidence.detail ?? 'not in the result' };
    });
  } finally {
    await site.close();
  }
}

/** Every file, a few at a time (each scan makes some forty requests to its own site); rows in the files' order. */
export async function scanCorpus(files: CorpusFile[], options: { concurrency?: number; onFile?: (done: number, total: number) => void } = {}): Promise<CorpusRow[]> {
  const results: CorpusRow[][] = new Array(files.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      results[index] = await scanCorpusFile(files[index]);
      options.onFile?.(++done, files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 3, files.length)) }, worker));
  return results.flat();
}

/** Per check, how many files got each status. */
export function verdictCounts(rows: CorpusRow[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    counts[row.check] ??= {};
    counts[row.check][row.status] = (counts[row.check][row.status] ?? 0) + 1;
  }
  return counts;
}

/** The verdict table (file, kind, check, status, first message), then the counts per check. */
export function formatCorpusTable(rows: CorpusRow[], width = 140): string {
  const firstLine = (text: string): string => {
    const line = text.split('\n')[0];
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  const table = [['file', 'kind', 'check', 'status', 'message'], ...rows.map((r) => [r.file, r.kind, r.check, r.status, firstLine(r.detail)])];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...table.map((row) => row[i].length)));
  const lines = table.map((row) => [...row.slice(0, 4).map((cell, i) => cell.padEnd(widths[i])), row[4]].join('  ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  ') + '  -------');
  const counts = Object.entries(verdictCounts(rows)).map(([check, byStatus]) => `${check}: ${Object.entries(byStatus).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s} ${n}`).join(', ')}`);
  return `${lines.join('\n')}\n\n${counts.join('\n')}\n`;
}
