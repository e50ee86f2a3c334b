// `--baseline <domain or file>`: a path that exists (or looks like a .json file) is read as an earlier
// `arl check --format json` output; anything else is a domain whose current report is read from the service.
import * as fs from 'node:fs';
import type { LeaderboardSchemas } from '@arl/client';
import type { Deadline } from './deadline';
import { CliError } from './errors';
import type { Baseline, GateCheck, Grade } from './model';
import { errorText, reach, toGateCheck } from './run-api';
import { serviceClient } from './service-client';

const GRADES: readonly Grade[] = ['A+', 'A', 'B', 'C', 'D', 'F'];
const MAX_BASELINE_BYTES = 5 * 1024 * 1024;

export async function loadBaseline(spec: string, api: string, deadline: Deadline): Promise<Baseline> {
  if (fs.existsSync(spec) || /\.json$/i.test(spec) || spec.includes('/')) return readBaselineFile(spec);
  return readBaselineCompany(spec, api, deadline);
}

export function readBaselineFile(file: string): Baseline {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_BASELINE_BYTES) throw new CliError(`The baseline file ${file} is over 5 MiB; it is not an arl output.`);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`Cannot read the baseline file ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CliError(`The baseline file ${file} is not JSON: write it with \`arl check <url> --format json > ${file}\`.`);
  }
  const d = doc as Record<string, unknown>;
  const valid =
    d !== null && typeof d === 'object' && d.tool === 'arl' && Number.isInteger(d.score) && GRADES.includes(d.grade as Grade) &&
    typeof d.domain === 'string' && typeof d.scannedAt === 'string' && Array.isArray(d.checks) && d.checks.every(isCheck);
  if (!valid) throw new CliError(`The baseline file ${file} is not an \`arl check --format json\` output of a scored scan.`);
  return { source: file, domain: d.domain as string, scannedAt: d.scannedAt as string, score: d.score as number, grade: d.grade as Grade, checks: (d.checks as GateCheck[]).map(toGateCheck) };
}

function isCheck(c: unknown): boolean {
  const x = c as Record<string, unknown>;
  return x !== null && typeof x === 'object' && typeof x.id === 'string' && typeof x.name === 'string' && typeof x.status === 'string' &&
    typeof x.earned === 'number' && typeof x.points === 'number';
}

async function readBaselineCompany(domain: string, api: string, deadline: Deadline): Promise<Baseline> {
  const res: { data?: LeaderboardSchemas['ScanReport']; error?: unknown; response: Response } = await reach(api, () =>
    serviceClient(api, deadline).GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain }, query: { community: 'include' } } }),
  );
  if (!res.data) {
    if (res.response.status === 404) throw new CliError(`The baseline company ${domain} has no scored scan on ${api}.`);
    throw new CliError(`Could not read the baseline company ${domain} (${res.response.status}): ${errorText(res.error)}`);
  }
  const r = res.data;
  if (r.score === null || r.grade === null) throw new CliError(`The baseline company ${domain} has no score on ${api}.`);
  return { source: `${r.domain} on ${api}`, domain: r.domain, scannedAt: r.scannedAt, score: r.score, grade: r.grade, checks: r.checks.map(toGateCheck) };
}
