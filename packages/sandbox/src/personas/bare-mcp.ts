import { z } from 'zod';
import { text } from '../responses';
import type { Persona } from '../types';

/** Works, but the bare minimum: terse descriptions, undocumented parameters, no annotations, no server card. */
export const bareMcp: Persona = {
  name: 'bare-mcp',
  hostname: 'bare-mcp.test',
  path: '/mcp',
  expected: { kind: 'mcp_server', ending: 'finished', grades: ['C', 'D'] },
  description: 'A working MCP server with two tools, one-word descriptions, no parameter docs and no annotations.',
  routes: { '/': text('MCP server at /mcp') },
  mcp: {
    path: '/mcp',
    serverInfo: { name: 'bare-weather', version: '0.1.0' },
    register(server) {
      server.registerTool('get_weather', { description: 'Weather.', inputSchema: { city: z.string() } }, async ({ city }) => ({
        content: [{ type: 'text', text: `Sunny in ${city}` }],
      }));
      server.registerTool('set_units', { description: 'Units', inputSchema: { units: z.string() } }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    },
  },
};
