import { Worker } from 'node:worker_threads';

/**
 * What the reference validator (@apidevtools/swagger-parser: the Swagger 2.0 / OpenAPI 3.0 / 3.1 JSON Schemas, then
 * its semantic checks) says of a document. `not_validated` never counts against a site: the validator ran out of
 * time or memory, or crashed.
 */
export interface OpenApiValidation {
  /** The fetched document's URL (FetchedDoc.url). */
  url: string;
  status: 'valid' | 'invalid' | 'not_validated';
  /** Our own sentences naming the first problems (never the library's text), at most MAX_ERRORS. */
  errors: string[];
  /** How many problems the validator reported in all. */
  errorCount: number;
}

const MAX_ERRORS = 3;
/** A document whose references expand without end (or a very large one) stops here, unjudged. */
export const VALIDATION_TIMEOUT_MS = 10_000;
const WORKER_HEAP_MB = 256;
/**
 * An idle thread is ended after this long: it holds some 30 MB with ajv and the schemas loaded, and a process that
 * loads this module afresh (a test runner, one module registry per file) would otherwise keep one per load.
 */
const WORKER_IDLE_MS = 10_000;

/**
 * Runs in a worker thread so that a large document (a 2 MiB specification takes about a second) or one whose $refs
 * expand exponentially never stalls the process that serves reads; the thread is reused between documents.
 * External resolution is off, and so are the file and http resolvers: a scan never fetches or reads from disk what a
 * document points at.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SwaggerParser = require(workerData.parserPath);
const OPTIONS = { resolve: { external: false, file: false, http: false }, validate: { schema: true, spec: true } };
parentPort.on('message', ({ id, spec }) => {
  new SwaggerParser().validate(spec, OPTIONS).then(
    () => parentPort.postMessage({ id, valid: true }),
    (error) => parentPort.postMessage({
      id,
      valid: false,
      name: String((error && error.name) || ''),
      message: String((error && error.message) || ''),
      details: Array.isArray(error && error.details)
        ? error.details.slice(0, 50).map((d) => ({ instancePath: String(d.instancePath || ''), keyword: String(d.keyword || ''), params: d.params || {} }))
        : null,
    }),
  );
});
`;

interface WorkerAnswer {
  id: number;
  valid: boolean;
  name?: string;
  message?: string;
  details?: Array<{ instancePath: string; keyword: string; params: Record<string, unknown> }> | null;
}

let worker: Worker | null = null;
let idleTimer: NodeJS.Timeout | null = null;
let nextId = 1;
/** Requests awaiting an answer, with the thread each was sent to (a replaced thread settles only its own). */
const waiting = new Map<number, { thread: Worker; resolve: (answer: WorkerAnswer | null) => void }>();

function settleAll(thread: Worker): void {
  for (const [id, entry] of waiting) {
    if (entry.thread !== thread) continue;
    waiting.delete(id);
    entry.resolve(null);
  }
}

function validatorWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { parserPath: require.resolve('@apidevtools/swagger-parser') },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  started.on('message', (answer: WorkerAnswer) => {
    const entry = waiting.get(answer.id);
    waiting.delete(answer.id);
    entry?.resolve(answer);
    // An idle thread does not keep the process alive, and ends after a while.
    if (![...waiting.values()].some((e) => e.thread === started)) {
      started.unref();
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        if (worker !== started || [...waiting.values()].some((e) => e.thread === started)) return;
        worker = null;
        void started.terminate();
      }, WORKER_IDLE_MS);
      idleTimer.unref();
    }
  });
  const gone = (): void => {
    if (worker === started) worker = null;
    settleAll(started);
  };
  started.on('error', gone);
  started.on('exit', gone);
  worker = started;
  return started;
}

/** Asks the worker; null when it could not answer in time (the worker is then replaced) or died. */
function ask(spec: Record<string, unknown>, timeoutMs: number): Promise<WorkerAnswer | null> {
  return new Promise((resolve) => {
    let thread: Worker;
    try {
      thread = validatorWorker();
    } catch {
      resolve(null);
      return;
    }
    const id = nextId++;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    const timer = setTimeout(() => {
      // A document that keeps the validator busy this long is left unjudged, and so is anything queued behind it.
      if (worker === thread) worker = null;
      settleAll(thread);
      void thread.terminate();
    }, timeoutMs);
    waiting.set(id, {
      thread,
      resolve: (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
    });
    thread.ref();
    try {
      thread.postMessage({ id, spec });
    } catch {
      waiting.delete(id);
      clearTimeout(timer);
      resolve(null);
    }
  });
}

export async function validateOpenApi(url: string, spec: Record<string, unknown>, timeoutMs = VALIDATION_TIMEOUT_MS): Promise<OpenApiValidation> {
  const answer = await ask(spec, timeoutMs);
  if (!answer) return { url, status: 'not_validated', errors: [], errorCount: 0 };
  if (answer.valid) return { url, status: 'valid', errors: [], errorCount: 0 };
  const problems = describeProblems(answer);
  if (problems.length === 0) return { url, status: 'not_validated', errors: [], errorCount: 0 };
  return { url, status: 'invalid', errors: problems.slice(0, MAX_ERRORS), errorCount: problems.length };
}

/** "#/paths/~1orders/post" as written in the document: JSON Pointer escapes undone. */
function location(pointer: string): string {
  const path = pointer.split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join(' > ').replace(/^ > /, '');
  return path ? `at ${path}` : 'at the top level';
}

function quoted(value: unknown): string {
  return JSON.stringify(String(value)).slice(0, 80);
}

/** Our own sentences for what the validator found; a library message is never passed on as is. */
export function describeProblems(answer: Pick<WorkerAnswer, 'name' | 'message' | 'details'>): string[] {
  if (answer.details && answer.details.length > 0) {
    const seen = new Set<string>();
    const sentences: string[] = [];
    for (const d of answer.details) {
      const where = location(d.instancePath);
      const sentence =
        d.keyword === 'required'
          ? `${where}: the required ${quoted(d.params.missingProperty)} is missing`
          : d.keyword === 'additionalProperties'
            ? `${where}: ${quoted(d.params.additionalProperty)} is not allowed here`
            : d.keyword === 'unevaluatedProperties'
              ? `${where}: ${quoted(d.params.unevaluatedProperty)} is not allowed here`
              : d.keyword === 'type'
                ? `${where}: must be of type ${String(d.params.type).slice(0, 40)}`
                : d.keyword === 'enum' || d.keyword === 'const'
                  ? `${where}: not one of the allowed values`
                  : d.keyword === 'oneOf' || d.keyword === 'anyOf'
                    ? `${where}: matches none of the allowed forms`
                    : `${where}: breaks the schema's ${quoted(d.keyword)} rule`;
      if (seen.has(sentence)) continue;
      seen.add(sentence);
      sentences.push(sentence);
    }
    return sentences;
  }
  const message = answer.message ?? '';
  const pointer = /Missing \$ref pointer "([^"]{1,200})"/.exec(message);
  if (pointer) return [`$ref ${quoted(pointer[1])} points to nothing in the document`];
  if (/^Validation failed\. /.test(message)) {
    // swagger-parser's semantic checks name the document's own paths and parameters; the first line is kept, bounded.
    return [message.replace(/^Validation failed\. /, '').split('\n')[0].slice(0, 200)];
  }
  if (/version number must be a string/i.test(message)) return ['a version number is written as a number, not a string'];
  if (/not a valid Openapi API definition|Unrecognized Swagger version|Unsupported OpenAPI version/i.test(message)) return ['the document does not declare a supported OpenAPI or Swagger version'];
  if (/schema validation failed/i.test(message)) return ['the document does not match the OpenAPI schema'];
  if (answer.name === 'SyntaxError' || answer.name === 'ReferenceError' || /\$ref/.test(message)) return ['the reference validator rejects the document'];
  return [];
}
