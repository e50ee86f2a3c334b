// The contract fuzz suite: requests derived from both YAML documents (every operation, valid and hostile values for
// every parameter and body field, several encodings, boundary lengths, Unicode, NUL, lone surrogates), sent to both
// hosts on loopback, and every answer held to the contract:
//   - no 5xx;
//   - the status is one the YAML lists for the operation;
//   - an error body with an application/json schema matches it, and our Error body is exactly
//     {code, message, requestId} with requestId equal to X-Request-Id;
//   - a 2xx JSON body matches its schema; a non-JSON answer has a media type the YAML lists (event streams are
//     closed after their headers);
//   - a contract-valid request is accepted: never refused as malformed (400 bad_request or invalid_json, 413, 415).
// Bounded for `npm test` (FUZZ_RUNS per operation and property, default 4); `npm run fuzz` runs it deeper.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import * as http from 'node:http';
import { loadContracts, type ContractOperation, type JsonSchema } from './support/contract-model';
import { hostileRequest, validRequest, type FuzzRequest, type KnownValues } from './support/fuzz/requests';
import { insertCompany } from './support/fixtures';
import { insertProject } from './feedback-fixtures';
import { startTestServer, type TestServer } from './support/harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const SURVEY = process.env.FUZZ_SURVEY === '1';
const findings = new Map<string, string>();

let t: TestServer;
let operations: ContractOperation[] = [];
const known: KnownValues = {};
let requests = 0;
const statusCounts = new Map<number, number>();

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
const validators = new Map<JsonSchema, ReturnType<typeof ajv.compile>>();
const validatorFor = (schema: JsonSchema) => {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = ajv.compile(schema)));
  return v;
};

beforeAll(async () => {
  const contracts = await loadContracts();
  operations = [...contracts.leaderboard.operations, ...contracts.feedback.operations];
  t = await startTestServer({
    env: { SCAN_RATE_LIMIT: '0', FEEDBACK_RATE_LIMIT: '0' },
    // Every name is a public address; no worker runs, so nothing is ever fetched.
    fetchPolicy: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] },
  });
  await insertCompany(t.runtime.db, { name: 'Fuzz Co', domain: 'fuzz.example', score: 77, category: 'developer-tools', history: [[70, new Date(Date.now() - 8 * 86_400_000)]] });
  await insertProject(t.runtime.db, { slug: 'fuzz-project' });
  const scan = await t.client.POST('/v1/leaderboard/scans', { body: { url: 'https://fuzz.example/' } });
  const journey = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', { params: { path: { domain: 'fuzz.example' }, query: {} }, body: {} });
  Object.assign(known, {
    domain: ['fuzz.example', 'FUZZ.example'],
    slug: ['fuzz-project'],
    scanId: [scan.data!.scan.id],
    journeyId: [journey.data!.journey.id],
  });
});
afterAll(async () => {
  agent.destroy();
  await t?.close();
  const statuses = [...statusCounts.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`).join(' ');
  if (SURVEY) console.log([...findings.entries()].map(([kind, example]) => `${kind}\n    e.g. ${example}`).join('\n'));
  console.log(`contract fuzz: ${requests} requests over ${operations.length} operations (${RUNS} runs per operation and property); statuses ${statuses}`);
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

// One kept-alive connection at a time: requests reuse it, as a real client would.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let previous = '';

/** node:http rather than fetch: a GET may carry a body here, and event streams are dropped after their headers. */
function send(op: ContractOperation, request: FuzzRequest): Promise<Answer> {
  const base = new URL(op.host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl);
  const before = previous;
  previous = `${request.method.toUpperCase()} ${request.url} ${JSON.stringify(request.headers)} ${String(request.body).slice(0, 100)}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: request.method.toUpperCase(), path: request.url, timeout: 10_000, agent,
        // Node's client frames a GET body with neither Content-Length nor chunking; say how long it is.
        headers: request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) } },
      (res) => {
        requests += 1;
        const status = res.statusCode ?? 0;
        statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status, headers, text: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status, headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (err) => reject(new Error(`${err.message} (the request before: ${before})`)));
    req.end(request.body);
  });
}

const mediaOf = (contentType: string | null) => (contentType ?? '').split(';')[0].trim().toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

/** Every rule of the contract that holds for any request; returns the broken ones. */
function contractProblems(op: ContractOperation, request: FuzzRequest, answer: Answer): string[] {
  const problems: string[] = [];
  const { status } = answer;
  const requestId = answer.headers.get('x-request-id');
  if (status >= 500) problems.push(`answered ${status}`);
  if (!requestId) problems.push('no X-Request-Id');
  const listed = op.responses.find((r) => r.status === status);
  if (!listed) {
    problems.push(`status ${status} is not listed (${op.statuses.join(', ')})`);
    return problems;
  }
  if (request.method === 'head' || status === 204 || Object.keys(listed.content).length === 0) return problems;
  const media = mediaOf(answer.headers.get('content-type'));
  if (!(media in listed.content)) {
    problems.push(`media type ${media || '(none)'} is not listed for ${status} (${Object.keys(listed.content).join(', ')})`);
    return problems;
  }
  const schema = listed.content[media];
  if (!isJson(media) || !schema) return problems;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push(`${status} body is not JSON: ${answer.text.slice(0, 120)}`);
    return problems;
  }
  const validate = validatorFor(schema);
  if (!validate(body)) problems.push(`${status} body breaks its schema: ${ajv.errorsText(validate.errors)}; body ${answer.text.slice(0, 300)}`);
  const isErrorSchema = Array.isArray(schema.required) && ['code', 'message', 'requestId'].every((k) => schema.required!.includes(k));
  if (isErrorSchema) {
    const keys = Object.keys(body as object).sort().join(',');
    if (keys !== 'code,message,requestId') problems.push(`error body keys ${keys}`);
    if ((body as { requestId?: string }).requestId !== requestId) problems.push('requestId differs from X-Request-Id');
    const incoming = request.headers['x-request-id'];
    if (incoming && /^[A-Za-z0-9._:-]{1,128}$/.test(incoming) && requestId !== incoming) problems.push('a well-formed X-Request-Id was not echoed');
  }
  return problems;
}

/**
 * The one rule of ours no schema can state: compare takes 2 to 4 distinct domains once each is trimmed, lowercased and
 * without a root dot and repeats are removed (`a.com,A.com` is one company). A valid draw that breaks it may be
 * refused (`invalid_domains`), nothing else may.
 */
function comparesOutOfBounds(request: FuzzRequest): boolean {
  const raw = new URL(request.url, 'http://x').searchParams.get('domains');
  if (raw === null) return false;
  const distinct = new Set(raw.split(',').map((d) => d.trim().toLowerCase().replace(/\.$/, ''))).size;
  return distinct < 2 || distinct > 4;
}

/** A contract-valid request may meet a missing resource or a state rule, never a refusal as malformed. */
function refusedAsMalformed(answer: Answer, request: FuzzRequest): string | null {
  if (answer.status === 413 || answer.status === 415) return `valid request answered ${answer.status}`;
  if (answer.status !== 400) return null;
  let code: unknown;
  try {
    code = (JSON.parse(answer.text) as { code?: unknown }).code;
  } catch {
    return `valid request answered 400: ${answer.text.slice(0, 200)}`;
  }
  if (code === 'invalid_domains' && comparesOutOfBounds(request)) return null;
  return code === 'invalid_cursor' ? null : `valid request answered 400 ${answer.text.slice(0, 300)}`;
}

async function check(op: ContractOperation, request: FuzzRequest): Promise<void> {
  const answer = await send(op, request);
  const problems = contractProblems(op, request, answer);
  if (request.valid) {
    // A HEAD answer has no body to name its code: the same request as GET tells.
    const judged = request.method === 'head' && answer.status === 400 ? await send(op, { ...request, method: 'get' }) : answer;
    const refused = refusedAsMalformed(judged, request);
    if (refused) problems.push(refused);
  }
  if (problems.length === 0) return;
  const report = `${request.method.toUpperCase()} ${request.url}\n${problems.join('\n')}\n${request.note.slice(0, 1500)}`;
  if (!SURVEY) throw new Error(report);
  // Survey mode (FUZZ_SURVEY=1): keep going and list every kind of breach once, with one example each.
  for (const problem of problems) {
    const kind = `${op.operationId}: ${problem.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').replace(/"requestId":"<id>"/g, '').slice(0, 110)}`;
    if (!findings.has(kind)) findings.set(kind, `${request.method.toUpperCase()} ${request.url.slice(0, 160)}`);
  }
}

const params = () => ({ numRuns: RUNS, seed: SEED, endOnFailure: true });

test('every contract-valid request is accepted and answered inside the contract', async () => {
  for (const op of operations) {
    await fc.assert(fc.asyncProperty(validRequest(op, known), (request) => check(op, request)), params());
  }
}, Math.max(300_000, 120_000 + RUNS * 5_000)); // never below the base deadline; more for a long FUZZ_RUNS

test('every hostile request is answered inside the contract', async () => {
  for (const op of operations) {
    await fc.assert(fc.asyncProperty(hostileRequest(op, known), (request) => check(op, request)), params());
  }
  expect([...findings.keys()]).toEqual([]);
}, Math.max(300_000, 120_000 + RUNS * 5_000)); // never below the base deadline; more for a long FUZZ_RUNS
