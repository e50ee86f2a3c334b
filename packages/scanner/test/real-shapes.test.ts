import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import robotsParser from 'robots-parser';
import type { AgentCard } from '@a2a-js/sdk' with { 'resolution-mode': 'require' };
import { scan } from '../src';
import { createGuardedFetch } from '../src/fetch/guarded-fetch';
import { main } from '../src/cli/corpus';
import type { CorpusRow } from '../src/corpus/run';
import { validateOpenApi } from '../src/gather/openapi-validation';
import { SEARCH_AND_USER_BOTS, TRAINING_BOTS } from '../src/gather/user-agents';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/**
 * Real shapes (test/fixtures/real-shapes/README.md: each file is ours and cites where its shape was seen), scanned by
 * the corpus command from their own loopback sites and judged as an independent reference judges them:
 * llms.txt as llmstxt.org's parser reads it, OpenAPI by swagger-parser reading the file itself, A2A cards by the
 * fields the specification marks required, robots.txt by robots-parser (RFC 9309, exact product tokens).
 */
const FIXTURES = path.join(__dirname, 'fixtures', 'real-shapes');
const read = (file: string): string => readFileSync(path.join(FIXTURES, file), 'utf8');

let rows: CorpusRow[] = [];
let printed = '';
const verdict = (file: string, check: string): CorpusRow => {
  const row = rows.find((r) => r.file === file && r.check === check);
  if (!row) throw new Error(`No verdict for ${file} / ${check}`);
  return row;
};

function collect(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _enc, done) => void (chunks.push(Buffer.from(chunk)), done()) });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

beforeAll(async () => {
  const out = collect();
  const err = collect();
  expect(await main([FIXTURES, '--json', '--concurrency', '3'], out.stream, err.stream)).toBe(0);
  rows = (JSON.parse(out.text()) as { rows: CorpusRow[] }).rows;
  const table = collect();
  expect(await main([path.join(FIXTURES, 'robots-txt')], table.stream, collect().stream)).toBe(0);
  printed = table.text();
});

describe('the corpus command', () => {
  it('decides each fixture kind from its path or content and prints one verdict per check of that kind', () => {
    const kinds = Object.fromEntries(rows.map((r) => [r.file, r.kind]));
    expect(kinds).toMatchObject({
      'llms-txt/generator-line-aioseo.txt': 'llms-txt',
      'openapi/openapi-3.0.1.yaml': 'openapi',
      'agent-card/a2a-0.3.json': 'agent-card',
      'robots-txt/disallow-all.txt': 'robots-txt',
    });
    expect(Object.keys(kinds)).toHaveLength(18);
    expect(rows.filter((r) => r.file === 'robots-txt/disallow-all.txt').map((r) => r.check)).toEqual(['robots-txt', 'ai-search-bots-allowed', 'ai-training-bot-policy']);
    expect(rows.every((r) => !['failed_scan', 'interrupted'].includes(r.status))).toBe(true);
  });

  it('prints a table of file, kind, check, status and first message, then the counts per check', () => {
    expect(printed).toMatch(/^file\s+kind\s+check\s+status\s+message\n/);
    expect(printed).toMatch(/disallow-all\.txt\s+robots-txt\s+ai-search-bots-allowed\s+failed\s+robots\.txt disallows/);
    expect(printed).toMatch(/\nai-search-bots-allowed: failed 1, passed 2\n/);
  });

  it('fetches loopback only: an address elsewhere is refused before any connection, a name elsewhere is never looked up', async () => {
    // Any dial is sent to a closed loopback port instead, so even a broken rule never reaches another address.
    const dialed: string[] = [];
    const fetchLoopback = createGuardedFetch({ allowPrivateNetworks: true, loopbackOnly: true, requestTimeoutMs: 2000 }, {
      dial: (vetted) => (dialed.push(vetted.address), { address: '127.0.0.1', family: 4 }),
    });
    await expect(fetchLoopback('http://10.255.255.1:1/sitemap.xml')).rejects.toMatchObject({ code: 'blocked_address' });
    await expect(fetchLoopback('http://[fd00::1]:1/keys.json')).rejects.toMatchObject({ code: 'blocked_address' });
    expect(dialed).toEqual([]);
    const sitemaps = rows.filter((r) => r.file === 'robots-txt/search-not-training.txt');
    // Its Sitemap line names https://shop.example/: the scan went on without it.
    expect(sitemaps.find((r) => r.check === 'robots-txt')?.status).toBe('passed');
  });

  it('answers a usage error with exit code 2', async () => {
    const err = collect();
    expect(await main([], collect().stream, err.stream)).toBe(2);
    expect(err.text()).toContain('Usage: npm run corpus -- <folder>');
  });
});

/** llmstxt.org's parser (llms_txt miniparse.py): the part before the first "##" line holds "^# title" somewhere. */
function referenceLlmsTitle(text: string): string | null {
  const start = text.split(/^##/m)[0];
  return /^#\s*(.+?)$/m.exec(start.trim())?.[1] ?? null;
}

describe('llms.txt with something before the H1', () => {
  const cases: Array<[string, RegExp]> = [
    ['llms-txt/generator-line-aioseo.txt', /a generator's line \("Generated by All in One SEO v4\.9\.10/],
    ['llms-txt/generator-line-rank-math.txt', /a generator's line \("Generated by Rank Math SEO/],
    ['llms-txt/front-matter.txt', /YAML front matter comes before the H1/],
    ['llms-txt/html-comment.txt', /an HTML comment \("<!-- llms\.txt generated/],
  ];
  it.each(cases)('%s still parses (title read, as llmstxt.org reads it) and is a warning naming the preamble', (file, named) => {
    const title = referenceLlmsTitle(read(file));
    expect(title).not.toBeNull();
    const row = verdict(file, 'llms-txt');
    expect(row.status).toBe('warning');
    expect(row.detail).toContain(`an H1 ("${title}")`);
    expect(row.detail).toMatch(named);
  });

  it('the summary and link sections after the preamble are read too', () => {
    expect(verdict('llms-txt/generator-line-aioseo.txt', 'llms-txt').detail).toMatch(/a summary and 2 link section\(s\)/);
    expect(verdict('llms-txt/generator-line-rank-math.txt', 'llms-txt').detail).toMatch(/1 link section\(s\), but no "> summary"/);
  });

  it('a file with no H1 at all still fails, for the reference parser too', () => {
    expect(referenceLlmsTitle(read('llms-txt/no-h1.txt'))).toBeNull();
    expect(verdict('llms-txt/no-h1.txt', 'llms-txt').status).toBe('failed');
  });
});

describe('OpenAPI documents, judged by swagger-parser reading each file itself', () => {
  const files = ['openapi-3.0.1.yaml', 'openapi-3.1.0.yaml', 'unresolved-ref.json', 'schema-error.yaml', 'swagger-2.0-schema-error.json', 'no-operations-invalid.json'];
  const reference = new Map<string, boolean>();
  beforeAll(async () => {
    for (const file of files) {
      const valid = await SwaggerParser.validate(path.join(FIXTURES, 'openapi', file), { resolve: { external: false } }).then(
        () => true,
        () => false,
      );
      reference.set(file, valid);
    }
  });

  it('YAML documents the reference accepts (3.0.1 and 3.1.0) pass, named as YAML', () => {
    expect(reference.get('openapi-3.0.1.yaml')).toBe(true);
    expect(reference.get('openapi-3.1.0.yaml')).toBe(true);
    expect(verdict('openapi/openapi-3.0.1.yaml', 'openapi')).toMatchObject({ status: 'passed', detail: expect.stringContaining('OpenAPI 3.0.1 (YAML) document found') });
    expect(verdict('openapi/openapi-3.1.0.yaml', 'openapi')).toMatchObject({ status: 'passed', detail: expect.stringContaining('OpenAPI 3.1.0 (YAML) document found') });
  });

  it.each([
    ['unresolved-ref.json', /\$ref "#\/components\/schemas\/RpcRequest" points to nothing in the document/],
    ['schema-error.yaml', /at servers > 0 > variables > shop: the required "default" is missing/],
    ['swagger-2.0-schema-error.json', /at paths > \/orders > post > parameters > 0 > schema > properties > document > type/],
  ])('%s, which the reference rejects, is a warning naming the first problems (its operations can still be read)', (file, named) => {
    expect(reference.get(file)).toBe(false);
    const row = verdict(`openapi/${file}`, 'openapi');
    expect(row.status).toBe('warning');
    expect(row.detail).toMatch(/reference validator \(swagger-parser\) rejects it/);
    expect(row.detail).toMatch(named);
  });

  it('a rejected document with no operation to read fails', () => {
    expect(reference.get('no-operations-invalid.json')).toBe(false);
    expect(verdict('openapi/no-operations-invalid.json', 'openapi')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/no operation can be read from it: .*the required "version" is missing/) });
  });
});

describe('OpenAPI read by content, never following what it points at', () => {
  let server: http.Server;
  let origin = '';
  const hits: string[] = [];
  const yamlDoc = read('openapi/openapi-3.1.0.yaml');
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/' || req.url === '/split') {
        // /split announces the split document; / announces nothing, so /openapi.json is what is found.
        res.writeHead(200, { 'content-type': 'text/html', ...(req.url === '/split' ? { link: '</api/spec>; rel="service-desc"' } : {}) });
        res.end('<!doctype html><html><head><title>Parcels</title></head><body><h1>Parcels</h1></body></html>');
      } else if (req.url === '/openapi.json') {
        // YAML behind a .json name and a JSON content type: read by what it is.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(yamlDoc);
      } else if (req.url === '/api/spec') {
        // A valid document whose schemas live elsewhere: a file on the scanner's disk and a URL on this very server.
        const port = (server.address() as AddressInfo).port;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({
          openapi: '3.0.3',
          info: { title: 'Split spec', version: '1' },
          paths: {
            '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `http://127.0.0.1:${port}/schemas/a.json` } } } } } } },
            '/b': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '/etc/hostname' } } } } } } },
          },
        }));
      } else if (req.url === '/a') {
        // The split document's first operation, which the scan asks (a document is verified, not only read).
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const scanAt = (url: string) => scan(url, { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES }, maxPages: 1 });

  it('reads a YAML document served as /openapi.json with a JSON content type by what it is', async () => {
    const result = await scanAt(`${origin}/`);
    expect(result.checks.find((c) => c.id === 'openapi')).toMatchObject({ status: 'passed', evidence: { detail: 'OpenAPI 3.1.0 (YAML) document found' } });
  });

  it('judges a document without fetching or reading what its external $refs point at', async () => {
    const result = await scanAt(`${origin}/split`);
    expect(result.checks.find((c) => c.id === 'openapi')).toMatchObject({ status: 'passed', evidence: { detail: 'OpenAPI 3.0.3 document found; GET /a answers (HTTP 200, application/json)' } });
    expect(hits).toContain('/api/spec');
    expect(hits.filter((h) => h.startsWith('/schemas'))).toEqual([]);
  });

  it('leaves a document whose references expand exponentially unjudged instead of stalling', async () => {
    const schemas: Record<string, unknown> = { s0: { type: 'string' } };
    for (let i = 1; i <= 40; i++) schemas[`s${i}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/s${i - 1}` }, b: { $ref: `#/components/schemas/s${i - 1}` } } };
    const spec = { openapi: '3.0.3', info: { title: 'Bomb', version: '1' }, paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/s40' } } } } } } } }, components: { schemas } };
    await expect(validateOpenApi('http://x/openapi.json', spec, 1500)).resolves.toMatchObject({ status: 'not_validated', errors: [] });
    // The worker is replaced: the next document is judged as usual (with a deadline a loaded machine cannot reach: the
    // default 10 s would say not_validated).
    await expect(validateOpenApi('http://x/openapi.json', { openapi: '3.0.3', info: { title: 'ok' }, paths: {} }, 120_000)).resolves.toMatchObject({ status: 'invalid', errors: ['at info: the required "version" is missing'] });
  });
});

/**
 * The fields A2A marks required: 1.0 from specification/a2a.proto (field_behavior REQUIRED), 0.x from the 0.3
 * specification/json/a2a.json (AgentCard.required). Written here from the specification text, apart from the scanner.
 */
const skill = { type: 'object', required: ['id', 'name', 'description', 'tags'] };
const A2A_10 = {
  type: 'object',
  required: ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
  properties: {
    supportedInterfaces: { type: 'array', minItems: 1, items: { type: 'object', required: ['url', 'protocolBinding', 'protocolVersion'] } },
    defaultInputModes: { type: 'array', items: { type: 'string' } },
    defaultOutputModes: { type: 'array', items: { type: 'string' } },
    skills: { type: 'array', items: skill },
  },
};
const A2A_03 = {
  type: 'object',
  required: ['capabilities', 'defaultInputModes', 'defaultOutputModes', 'description', 'name', 'protocolVersion', 'skills', 'url', 'version'],
  properties: { skills: { type: 'array', items: skill } },
};
const ajv = new Ajv({ allErrors: true });
const valid10 = ajv.compile(A2A_10);
const valid03 = ajv.compile(A2A_03);

describe('A2A agent cards, judged by the fields their version requires', () => {
  const card = (file: string): Record<string, unknown> => JSON.parse(read(`agent-card/${file}`)) as Record<string, unknown>;

  it('a complete 1.0 card is valid for the reference and passes', () => {
    const complete = card('a2a-1.0-complete.json');
    // The SDK's own 1.0 type names the same fields (compile-time: every required key is present).
    const typed: Pick<AgentCard, 'name' | 'description' | 'version' | 'defaultInputModes' | 'defaultOutputModes'> = complete as never;
    expect(typed.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(valid10(complete)).toBe(true);
    expect(verdict('agent-card/a2a-1.0-complete.json', 'a2a-agent-card')).toMatchObject({ status: 'passed', detail: expect.stringMatching(/A2A 1\.0\) with 2 skill\(s\) and 2 interface\(s\); its endpoint was not verified \(The name harbour\.example could not be resolved\)$/) });
  });

  it('a 1.0 card without protocolBinding, protocolVersion and default modes is rejected by the reference and is no pass', () => {
    expect(valid10(card('a2a-1.0-missing-binding.json'))).toBe(false);
    const row = verdict('agent-card/a2a-1.0-missing-binding.json', 'a2a-agent-card');
    expect(row.status).toBe('warning');
    expect(row.detail).toContain('it lacks what A2A 1.0 requires: supportedInterfaces[0].protocolBinding, supportedInterfaces[0].protocolVersion, defaultInputModes, defaultOutputModes');
  });

  it('a card declaring 1.0 in the 0.3 shape lacks supportedInterfaces for the reference and is no pass', () => {
    expect(valid10(card('a2a-1.0-declared-0.3-shape.json'))).toBe(false);
    expect(verdict('agent-card/a2a-1.0-declared-0.3-shape.json', 'a2a-agent-card')).toMatchObject({ status: 'warning', detail: expect.stringContaining('(A2A 1.0 declared) with 1 skill(s) and 0 interface(s); it lacks what A2A 1.0 requires: supportedInterfaces') });
  });

  it('a complete 0.3 card is valid for 0.3 and is said to be so, with where 1.0 moved its fields', () => {
    expect(valid03(card('a2a-0.3.json'))).toBe(true);
    expect(valid10(card('a2a-0.3.json'))).toBe(false);
    expect(verdict('agent-card/a2a-0.3.json', 'a2a-agent-card')).toMatchObject({ status: 'warning', detail: expect.stringMatching(/A2A 0\.3 shape \(declares 0\.3\.0\): no supportedInterfaces; complete for 0\.3; 0\.3 fields: url \(now supportedInterfaces\[\]\.url\)/) });
  });
});

describe('robots.txt, judged by robots-parser (RFC 9309: exact product tokens, most specific rule)', () => {
  const judge = (file: string) => {
    const robots = robotsParser('http://127.0.0.1/robots.txt', read(`robots-txt/${file}`));
    const blocked = SEARCH_AND_USER_BOTS.filter((bot) => robots.isAllowed('http://127.0.0.1/', bot) === false);
    // A training crawler is named when a group's product token is exactly its own (RFC 9309 §2.2.1).
    const tokens = [...read(`robots-txt/${file}`).matchAll(/^\s*user-agent\s*:\s*(\S+)/gim)].map((m) => m[1].toLowerCase());
    const named = TRAINING_BOTS.filter((bot) => tokens.includes(bot.toLowerCase()));
    return { search: blocked.length === 0 ? 'passed' : blocked.length === SEARCH_AND_USER_BOTS.length ? 'failed' : 'warning', trainingNamed: named.length > 0 };
  };

  it.each(['search-not-training.txt', 'disallow-all.txt', 'prefix-token.txt'])('%s: the scanner agrees with the reference', (file) => {
    const reference = judge(file);
    expect(verdict(`robots-txt/${file}`, 'ai-search-bots-allowed').status).toBe(reference.search);
    const training = verdict(`robots-txt/${file}`, 'ai-training-bot-policy').status;
    if (reference.trainingNamed) expect(training).toBe('passed');
    else expect(training).not.toBe('passed');
  });

  it('search crawlers named, training crawlers not: search passes, the training policy is asked for', () => {
    expect(verdict('robots-txt/search-not-training.txt', 'ai-search-bots-allowed').status).toBe('passed');
    expect(verdict('robots-txt/search-not-training.txt', 'ai-training-bot-policy').status).toBe('warning');
  });

  it('a group for "ChatGPT" is not a group for ChatGPT-User (exact match), so ChatGPT-User may read the site', () => {
    expect(robotsParser('http://127.0.0.1/robots.txt', read('robots-txt/prefix-token.txt')).isAllowed('http://127.0.0.1/', 'ChatGPT-User')).toBe(true);
    expect(verdict('robots-txt/prefix-token.txt', 'ai-search-bots-allowed').status).toBe('passed');
  });
});
