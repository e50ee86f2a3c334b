// The client the pages read the API with: @arl/client, exactly as an outside frontend uses it, pointed at this
// host's own listening address (the local end of the page request's connection), so every read takes the full road
// (validation, errors) whatever port or interface the server was given. Its fetch first asks the host's response
// cache, as the listener itself would before Express: a read already answered (and validated) since the last data
// change costs no socket; anything else goes over a kept-alive loopback connection and fills the cache on its way.
import type { IncomingMessage } from 'node:http';
import { createLeaderboardClient, type LeaderboardClient } from '@arl/client';
import type { ResponseCache } from '../http/response-cache';

export function selfClient(cache?: ResponseCache): (req: unknown) => LeaderboardClient {
  const clients = new Map<string, LeaderboardClient>();
  const cachedFirst = async (input: Request, init?: RequestInit): Promise<Response> => {
    if (cache && input.method === 'GET') {
      const url = new URL(input.url);
      const body = cache.lookup(`${url.pathname}${url.search}`);
      if (body) return new Response(new Uint8Array(body), { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
    }
    return fetch(input, init);
  };
  return (req) => {
    const socket = (req as IncomingMessage).socket;
    const address = socket.localAddress ?? '127.0.0.1';
    const host = address.includes(':') ? `[${address}]` : address;
    const baseUrl = `http://${host}:${socket.localPort}`;
    let client = clients.get(baseUrl);
    if (!client) {
      client = createLeaderboardClient(baseUrl, { fetch: cachedFirst });
      clients.set(baseUrl, client);
    }
    return client;
  };
}
