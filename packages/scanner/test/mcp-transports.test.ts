import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { scan } from '../src';

/** A server built before 2025-03-26: GET /sse opens the stream, POSTs go to /messages. */
async function startLegacySseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, SSEServerTransport>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: 'legacy-clock', version: '0.9.0' });
      mcp.registerTool('get_time', { description: 'Returns the current server time as an ISO 8601 string, in UTC.', inputSchema: { zone: z.string().describe('IANA zone name') }, annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'text', text: new Date().toISOString() }],
      }));
      res.on('close', () => transports.delete(transport.sessionId));
      void mcp.connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405, { allow: 'GET' }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('MCP transports', () => {
  it('falls back to the legacy HTTP+SSE transport', async () => {
    const legacy = await startLegacySseServer();
    try {
      // The SSE stream stays open: the scan must not wait on it until the request timeout (60 s, far enough that a loaded
      // machine's delay cannot be taken for it; the scan takes well under a second on a quiet one).
      const result = await scan(legacy.url, { fetchPolicy: { allowPrivateNetworks: true, requestTimeoutMs: 60_000, scanBudgetMs: 120_000 } });
      expect(result).toMatchObject({ kind: 'mcp_server', ending: 'finished', siteName: 'legacy-clock' });
      const init = result.checks.find((c) => c.id === 'mcp-initialize')!;
      expect(init.status).toBe('warning');
      expect(init.evidence.detail).toMatch(/MCP \d{4}-\d{2}-\d{2} \(initialize; server\/discover not answered.*\), sse transport/);
      expect(result.checks.find((c) => c.id === 'mcp-tools-list')!.status).toBe('passed');
      expect(result.durationMs).toBeLessThan(30_000);
    } finally {
      await legacy.close();
    }
  });
});
