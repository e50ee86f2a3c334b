// The read workloads every read bench loads (lists of distinct paths per workload) and the raw node:http server that
// answers the same bytes from memory. Shared by the static reads (read-target.ts) and the live ones
// (live-target.ts), so a mixed row and a static row load the same kinds of paths.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '@arl/server';
import { benchDomain, isCommunity } from './seed-realistic';

export interface Workload {
  /** Paths the raw server knows the bytes of. */
  raw: string[];
  /** Paths the app is loaded with (never requested before). */
  app: string[];
}

const RAW_COUNT = Number(process.env.BENCH_RAW_PATHS ?? 500);
// Enough distinct paths per workload for an idle machine's misses (~15,000/s over a 1 s warm-up and a 5 s load).
const DISTINCT_PATHS = 120_000;
// Cursor walks: 8 page sizes so 10,000 companies give ~64,000 distinct pages (5 sizes gave 32,000).
const PAGE_SIZES = [10, 12, 15, 20, 25, 30, 40, 50];
const SORTS = ['score', 'company', 'category', 'scanned'] as const;
// After the four spellings, the same queries with other letters upper-cased (search is case-insensitive, the URL is
// not): a small population still has a distinct URL for every request, so its q load stays a miss load.
const CASE_VARIANTS = 64;

type Service = Runtime['leaderboard'];

/** Every generated path is distinct within its workload; `names` limits which workloads are built (cursor walks cost). */
export async function buildWorkloads(service: Service, companies: number, names: string[] = ['q', 'cursor', 'company', 'hit']): Promise<Record<string, Workload>> {
  const wanted = RAW_COUNT + DISTINCT_PATHS;
  const workloads: Record<string, Workload> = {};
  if (names.includes('q')) {
    const qPaths: string[] = [];
    const forms = [(j: number) => `company ${j}`, (j: number) => `${j}.example`, (j: number) => `bench company ${j}`, (j: number) => `Company ${j}`];
    const seenQ = new Set<string>();
    for (let k = 0; qPaths.length < wanted && k < companies * forms.length * CASE_VARIANTS; k++) {
      const j = (k * 7919) % companies; // spread over the whole range, not just the first names
      const variant = Math.floor(k / companies);
      const q = withCase(forms[variant % forms.length](j), Math.floor(variant / forms.length));
      const path = `/v1/leaderboard?limit=50&q=${encodeURIComponent(q)}`;
      if (!seenQ.has(path)) qPaths.push(path); // ("company 7" upper-cased once is the fourth spelling)
      seenQ.add(path);
    }
    workloads.q = split(qPaths);
  }
  if (names.includes('cursor')) {
    // 128 walks (4 sorts x 2 orders x 2 populations x 8 page sizes), each page a distinct cursor.
    const cursorPaths: string[] = [];
    const maxPages = Math.max(10, Math.ceil(wanted / 128));
    for (const limit of PAGE_SIZES) {
      for (const sort of SORTS) {
        for (const order of ['asc', 'desc'] as const) {
          for (const community of [undefined, 'include'] as const) {
            let cursor: string | null = null;
            for (let page = 0; page < maxPages; page++) {
              const result: { nextCursor: string | null } = await service.list({ sort, order, community, limit, ...(cursor ? { cursor } : {}) });
              cursor = result.nextCursor;
              if (!cursor) break;
              cursorPaths.push(`/v1/leaderboard?sort=${sort}&order=${order}${community ? '&community=include' : ''}&limit=${limit}&cursor=${cursor}`);
            }
          }
        }
      }
    }
    interleave(cursorPaths);
    workloads.cursor = split(cursorPaths);
  }
  if (names.includes('company')) {
    // Companies spread over the whole population (with and without community=include), then (a small population)
    // the same domains with letters upper-cased: operation 3 matches the domain case-insensitively, so each is a
    // distinct URL for the same read. At most `wanted` paths (a million companies would make a 100 MB list).
    const companyPaths: string[] = [];
    for (let variant = 0; variant < CASE_VARIANTS && companyPaths.length < wanted; variant++) {
      for (const include of [false, true]) {
        for (let k = 0; k < companies && companyPaths.length < wanted; k++) {
          const j = (k * 7919) % companies;
          if (isCommunity(j) && !include) continue;
          companyPaths.push(`/v1/leaderboard/companies/${withCase(benchDomain(j), variant)}${include ? '?community=include' : ''}`);
        }
      }
    }
    workloads.company = split(companyPaths);
  }
  if (names.includes('hit')) workloads.hit = { raw: ['/v1/leaderboard?limit=50'], app: ['/v1/leaderboard?limit=50'] };
  return workloads;
}

/**
 * A plain node:http server answering each workload's raw paths with the bytes the handlers answer (computed through
 * the service calls the handlers make, serialized as Express's res.json does, never through the app).
 */
export async function startRawServer(service: Service, workloads: Record<string, Workload>): Promise<{ server: http.Server; url: string }> {
  const bodies = new Map<string, Buffer>();
  for (const w of Object.values(workloads)) {
    for (const p of w.raw) bodies.set(p, Buffer.from(JSON.stringify(await answer(service, p))));
  }
  const server = http.createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body?.length ?? 0 });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function answer(service: Service, p: string): Promise<unknown> {
  const u = new URL(p, 'http://x');
  const query = Object.fromEntries(u.searchParams) as Record<string, string>;
  const company = /^\/v1\/leaderboard\/companies\/([^/]+)$/.exec(u.pathname);
  if (company) return service.company(decodeURIComponent(company[1]), query.community === 'include');
  return service.list({ ...query, limit: query.limit ? Number(query.limit) : undefined } as never);
}

/** `text` with the letters whose index (among letters) is a set bit of `pattern` upper-cased; 0 leaves it as is. */
function withCase(text: string, pattern: number): string {
  let letter = 0;
  return text.replace(/[a-z]/gi, (c) => ((pattern >> letter++ % 6) & 1 ? c.toUpperCase() : c));
}

function split(paths: string[]): Workload {
  const n = Math.min(RAW_COUNT, Math.floor(paths.length / 2));
  return { raw: paths.slice(0, n), app: paths.slice(n) };
}

/** Mixes the walks so consecutive requests come from different sorts (deterministic shuffle). */
function interleave(list: string[]): void {
  let seed = 42;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
}

export function withSchema(raw: string, schemaName: string): string {
  const u = new URL(raw);
  u.searchParams.set('schema', schemaName);
  return u.toString();
}
