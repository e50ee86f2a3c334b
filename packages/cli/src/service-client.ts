// The client every call to the service goes through (`@arl/client`, generated from the contract), held to three
// bounds whatever the service does: time (each request's signal is what is left of the run's deadline, and it also
// cuts a body that streams without end), size (an answer over MAX_ANSWER_BYTES is refused unread), and shape (a
// successful answer is checked against the contract's schema before anything reads it).
import { createLeaderboardClient, requestIdMiddleware, type LeaderboardClient, type Middleware } from '@arl/client';
import { ContractAnswers } from './contract-answers';
import type { Deadline } from './deadline';
import { CliError } from './errors';

/** Far above any answer the contract describes (a full report is tens of KiB), far below what would hurt a runner. */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

let contract: ContractAnswers | undefined;
const contractAnswers = () => (contract ??= ContractAnswers.load());

export function serviceClient(api: string, deadline: Deadline): LeaderboardClient {
  return createLeaderboardClient(api, { middleware: [requestIdMiddleware(), boundedAnswers(api, deadline, contractAnswers())] });
}

function boundedAnswers(api: string, deadline: Deadline, answers: ContractAnswers): Middleware {
  return {
    onRequest({ request }) {
      return new Request(request, { signal: deadline.signal() });
    },
    onError({ request, error, schemaPath }) {
      if (!request.signal.aborted) return undefined; // a transport failure: the caller names it (unreachable)
      return new CliError(`The service at ${api} did not answer ${answers.operationId(schemaPath, request.method)} within ${deadline.describe()}.`);
    },
    async onResponse({ request, response, schemaPath }) {
      const operation = answers.operationId(schemaPath, request.method);
      const bytes = await readBounded(response, request.signal, {
        tooLarge: () => new CliError(`The service's answer to ${operation} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, more than arl accepts; it was not read.`),
        late: () => new CliError(`The service at ${api} did not finish its answer to ${operation} within ${deadline.describe()}.`),
        dropped: () => new CliError(`The service at ${api} closed the connection in the middle of its answer to ${operation}.`),
      });
      const text = new TextDecoder().decode(bytes);
      if (response.ok) answers.checkSuccess(schemaPath, request.method, response.status, response.headers.get('content-type') ?? '', text);
      // The checked text goes on to openapi-fetch, which parses it again (cheap next to the network).
      return new Response(response.status === 204 ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
  };
}

/** The whole body, or an error: over `maxBytes` (declared or counted), the signal fired, the connection dropped. */
async function readBounded(
  response: Response,
  signal: AbortSignal,
  errors: { tooLarge: () => Error; late: () => Error; dropped: () => Error },
): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  if (Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await response.body.cancel().catch(() => {});
    throw errors.tooLarge();
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      throw signal.aborted ? errors.late() : errors.dropped();
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw errors.tooLarge();
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}
