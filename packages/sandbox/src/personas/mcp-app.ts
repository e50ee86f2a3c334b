import { z } from 'zod';
import { json } from '../responses';
import type { Persona } from '../types';

const UI_MIME = 'text/html;profile=mcp-app';

/** An MCP server whose tools render interactive views (MCP Apps extension). */
export const mcpApp: Persona = {
  name: 'mcp-app',
  hostname: 'flight-board.test',
  path: '/mcp',
  expected: { kind: 'mcp_app', ending: 'finished', grades: ['A+', 'A', 'B'] },
  description: 'A well-described MCP server whose tools link ui:// resources served as text/html;profile=mcp-app, with a server card.',
  routes: {
    '/.well-known/mcp/server-card.json': (req) =>
      json({ name: 'flight-board', title: 'Flight Board', version: '2.0.0', description: 'Live departures as an interactive board.', remotes: [{ type: 'streamable-http', url: `${req.origin}/mcp` }] }),
  },
  mcp: {
    path: '/mcp',
    serverInfo: { name: 'flight-board', version: '2.0.0', title: 'Flight Board' },
    validateOrigin: true,
    instructions: 'Call show_departures to display the board for an airport; search_flights returns plain data.',
    register(server) {
      server.registerTool(
        'show_departures',
        {
          title: 'Show departures board',
          description: 'Shows the live departures board for an airport as an interactive view. Hosts without UI support receive the departures as text.',
          inputSchema: { airport: z.string().length(3).describe('IATA airport code, e.g. LIS') },
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
          _meta: { ui: { resourceUri: 'ui://flight-board/departures.html' } },
        },
        async ({ airport }) => ({ content: [{ type: 'text', text: `Departures from ${airport}: TP123 08:05 on time` }] }),
      );
      server.registerTool(
        'search_flights',
        {
          title: 'Search flights',
          description: 'Finds flights between two airports on a date and returns number, times and status. Read-only; use it before show_departures to pick an airport.',
          inputSchema: {
            from: z.string().length(3).describe('Departure airport, IATA code'),
            to: z.string().length(3).describe('Arrival airport, IATA code'),
            date: z.string().describe('Date as YYYY-MM-DD'),
          },
          outputSchema: { flights: z.array(z.object({ number: z.string(), departs: z.string() })) },
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
        },
        async () => {
          const flights = [{ number: 'TP123', departs: '08:05' }];
          return { content: [{ type: 'text', text: JSON.stringify({ flights }) }], structuredContent: { flights } };
        },
      );
      server.registerResource('departures-view', 'ui://flight-board/departures.html', { mimeType: UI_MIME, description: 'Departures board view' }, async (uri) => ({
        contents: [
          {
            uri: uri.href,
            mimeType: UI_MIME,
            text: '<!doctype html><html><head><title>Departures</title></head><body><table id="board"></table><script>/* renders tool results */</script></body></html>',
            _meta: { ui: { csp: { connectDomains: ['https://api.flight-board.test'], resourceDomains: [] }, prefersBorder: true } },
          },
        ],
      }));
    },
  },
};
