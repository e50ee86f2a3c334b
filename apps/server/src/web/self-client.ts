// The client the pages read the API with: @arl/client, exactly as an outside frontend uses it, pointed at this
// host's own listening address (the local end of the page request's connection), so every read takes the full road
// (validation, cache, errors) whatever port or interface the server was given. Node's fetch keeps those loopback
// connections alive, so a page costs no new connection per read.
import type { IncomingMessage } from 'node:http';
import { createLeaderboardClient, type LeaderboardClient } from '@arl/client';

export function selfClient(): (req: unknown) => LeaderboardClient {
  const clients = new Map<string, LeaderboardClient>();
  return (req) => {
    const socket = (req as IncomingMessage).socket;
    const address = socket.localAddress ?? '127.0.0.1';
    const host = address.includes(':') ? `[${address}]` : address;
    const baseUrl = `http://${host}:${socket.localPort}`;
    let client = clients.get(baseUrl);
    if (!client) {
      client = createLeaderboardClient(baseUrl);
      clients.set(baseUrl, client);
    }
    return client;
  };
}
