import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan } from '../../src';
import { scanCorpus } from './index';
import type { RunningServer } from './processes';

export interface CorpusRow {
  server: string;
  url: string;
  kind: string;
  ending: string;
  score: number | null;
  grade: string | null;
  failed: string[];
}

/** Scans each corpus server in turn (one at a time: the machine is small) and reports what a leaderboard would show. */
export async function corpusScoreTable(entries: Array<{ server: string; start: () => Promise<RunningServer> }>): Promise<CorpusRow[]> {
  const rows: CorpusRow[] = [];
  for (const entry of entries) {
    const running = await entry.start();
    try {
      const result = await scanCorpus(running.url);
      rows.push({
        server: entry.server,
        url: running.url.replace(/127\.0\.0\.1:\d+|localhost:\d+/, 'loopback'),
        kind: result.kind,
        ending: result.ending,
        score: result.score,
        grade: result.grade,
        failed: result.checks.filter((c) => c.status === 'failed').map((c) => c.id),
      });
    } finally {
      await running.close();
    }
  }
  return rows;
}

/** The sandbox personas, scanned the way test/personas.test.ts does, one at a time. */
export async function personaScoreTable(): Promise<CorpusRow[]> {
  const sandbox = await startSandbox();
  const rows: CorpusRow[] = [];
  try {
    for (const persona of PERSONAS) {
      const result = await scan(sandbox.urlOf(persona.name), { fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup } });
      rows.push({ server: `persona ${persona.name}`, url: sandbox.urlOf(persona.name).replace(/:\d+/, ''), kind: result.kind, ending: result.ending, score: result.score, grade: result.grade, failed: result.checks.filter((c) => c.status === 'failed').map((c) => c.id) });
    }
  } finally {
    await sandbox.close();
  }
  return rows;
}

export function scoreTableMarkdown(rows: CorpusRow[]): string {
  const lines = ['| corpus server | scanned URL | kind | ending | score | grade | failed checks |', '|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.server} | ${r.url} | ${r.kind} | ${r.ending} | ${r.score ?? '-'} | ${r.grade ?? '-'} | ${r.failed.join(', ') || '-'} |`);
  return lines.join('\n');
}
