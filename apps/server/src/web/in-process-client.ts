// The client the pages read the API with: @arl/client, the very type an outside frontend uses, whose fetch answers
// in process instead of over a socket. A read is first looked up in the host's response cache (under the one key
// every way in uses), then run through the contract compiled once (http/direct-reads.ts: parameters judged as the
// HTTP path judges them, the handler the route calls, the answer checked against the contract and serialized to the
// same bytes, and stored in the cache for the next reader). A handler's own error (a 404, an invalid cursor) comes
// back as the body the error handler writes, `{code, message, requestId}` with its status and headers.
//
// What the in-process path leaves to HTTP goes over loopback to this host's own listening address, through the
// whole stack: a method other than GET (the pages' server side sends none), an operation not compiled for the
// pages, parameters the full path must judge (its validator writes the 400's sentence), an answer other than a 200
// JSON body, one the contract refuses, and an error that is not ours (a database outage: the error handler logs it
// and answers 503 with its wait).
import type { IncomingMessage } from 'node:http';
import { createLeaderboardClient, type LeaderboardClient } from '@arl/client';
import type { DirectReads } from '../http/direct-reads';
import { errorBody } from '../http/errors';
import { pickRequestId } from '../http/request-id';
import type { ResponseCache } from '../http/response-cache';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/** `reads` is asked at the first read: it is compiled around the handlers, which include the pages themselves. */
export function inProcessClient(reads: () => DirectReads, cache?: ResponseCache): (req: unknown) => LeaderboardClient {
  const loopback = loopbackFetch();
  return (req) => {
    // The page request's id: its reads log under it (the HTTP road gave each read an id of its own).
    const requestId = (req as { requestId?: string }).requestId ?? pickRequestId(undefined);
    const fetch = async (input: Request): Promise<Response> => {
      if (input.method === 'GET') {
        const url = new URL(input.url);
        const target = `${url.pathname}${url.search}`;
        const cached = cache?.lookup(target);
        const outcome = cached ? { kind: 'answer' as const, bytes: cached } : await reads().read(target, requestId);
        if (outcome && outcome.kind !== 'unsure') {
          if (outcome.kind === 'answer') return new Response(outcome.bytes as unknown as Uint8Array<ArrayBuffer>, { status: 200, headers: JSON_TYPE });
          const { status, extraHeaders } = outcome.error;
          return new Response(errorBody(outcome.error, requestId), { status, headers: { ...extraHeaders, ...JSON_TYPE } });
        }
      }
      return loopback(req as IncomingMessage, input);
    };
    return createLeaderboardClient('http://in-process', { fetch });
  };
}

/** The full road: this host's own listening address (the local end of the page request's connection), kept alive. */
function loopbackFetch(): (req: IncomingMessage, input: Request) => Promise<Response> {
  return (req, input) => {
    const socket = req.socket;
    const address = socket.localAddress ?? '127.0.0.1';
    const host = address.includes(':') ? `[${address}]` : address;
    const url = new URL(input.url);
    return fetch(new Request(`http://${host}:${socket.localPort}${url.pathname}${url.search}`, input));
  };
}
