import type { ScanResult } from '../../src';
import { checkOf, DEFAULT_TOOL, startAndScanSites } from './index';
import type { RunningSite, SdkSiteOptions, WireTool } from './index';

const tool = (name: string, extra: Partial<WireTool> = {}): WireTool => ({ ...DEFAULT_TOOL, name, ...extra });
const describedObject = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/** One small SDK server per rule of MCP 2025-11-25; each is scanned as an MCP server target. */
const RULE_SERVERS: Record<string, SdkSiteOptions> = {
  // server/tools §Tool Names: 1-128 characters of A-Z a-z 0-9 _ - . ; the spec's own examples.
  'spec example names': { mcp: { tools: [tool('getUser'), tool('DATA_EXPORT_v2'), tool('user-profile_update')] } },
  'dotted name': { mcp: { tools: [tool('admin.tools.list')] } },
  'long name': { mcp: { tools: [tool('a'.repeat(100))] } },
  'name with a space': { mcp: { tools: [tool('search flights')] } },
  'name too long': { mcp: { tools: [tool('b'.repeat(129))] } },
  'duplicate names': { mcp: { tools: [tool('lookup'), tool('lookup')] } },
  // server/tools §Tool + basic §JSON Schema Usage (SEP-1613): schemas default to 2020-12 and must be valid against it.
  'valid 2020-12 schemas': {
    mcp: {
      tools: [
        tool('list_orders', {
          inputSchema: { type: 'object', $defs: { id: { type: 'string', description: 'Order id' } }, properties: { ids: { type: 'array', description: 'Order ids', items: { $ref: '#/$defs/id' } } } },
          outputSchema: { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } } },
        }),
      ],
    },
  },
  'input schema typo': { mcp: { tools: [tool('find', { inputSchema: describedObject({ q: { type: 'strnig', description: 'Query text' } }) })] } },
  'output schema typo': { mcp: { tools: [tool('find', { outputSchema: { type: 'object', properties: { total: { type: 'integr' } } } })] } },
  'explicit draft-07 schema': {
    mcp: { tools: [tool('find', { inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { q: { type: 'string', description: 'Query text' } }, definitions: { unused: { type: 'string' } } } })] },
  },
  // basic/lifecycle §Version Negotiation: a version the client does not support ends the handshake.
  'unsupported protocol version': { mcp: { protocolVersion: '1999-01-01' } },
  // JSON-RPC 2.0 §5.1: -32601 "Method not found" is a JSON-RPC service without an initialize method, not MCP.
  'other json-rpc service': {
    mcpPath: null,
    routes: () => ({ '/rpc': { body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }) } }),
  },
  // basic/transports §2.0.1 Security Warning: Origin validation (the SDK's DNS-rebinding protection).
  'origin validated': { mcp: { allowedOrigins: ['https://app.corpus.example'] } },
};

describe('MCP 2025-11-25 rules on small SDK servers', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();

  beforeAll(() => startAndScanSites(RULE_SERVERS, sites, results, (s) => s.mcpUrl ?? `${s.origin}/rpc`));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  const check = (server: string, id: string) => checkOf(results.get(server)!, id);

  describe('tool names (server/tools §Tool Names)', () => {
    it('the spec\'s example names pass', () => {
      expect(check('spec example names', 'mcp-tool-names').status).toBe('passed');
    });
    it('"admin.tools.list", the spec\'s own example, is valid: at most a warning that some clients reject dots', () => {
      expect(check('dotted name', 'mcp-tool-names')).toMatchObject({ status: 'warning', detail: expect.stringMatching(/admin\.tools\.list/) });
    });
    it('a 100-character name is valid (limit 128): at most a warning that some clients cap names at 64', () => {
      expect(check('long name', 'mcp-tool-names').status).toBe('warning');
    });
    it('a space, a 129-character name and a duplicate fail', () => {
      expect(check('name with a space', 'mcp-tool-names').status).toBe('failed');
      expect(check('name too long', 'mcp-tool-names').status).toBe('failed');
      expect(check('duplicate names', 'mcp-tool-names').status).toBe('failed');
    });
  });

  describe('tool schemas against the JSON Schema meta-schema (SEP-1613: 2020-12 unless $schema says otherwise)', () => {
    it('valid 2020-12 input and output schemas ($defs, prefixItems) pass', () => {
      expect(check('valid 2020-12 schemas', 'mcp-tool-schemas').status).toBe('passed');
      expect(check('valid 2020-12 schemas', 'mcp-output-schema').status).toBe('passed');
    });
    it('"type": "strnig" in an input schema fails', () => {
      expect(check('input schema typo', 'mcp-tool-schemas')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/find/) });
    });
    it('"type": "integr" in an output schema fails', () => {
      expect(check('output schema typo', 'mcp-tool-schemas')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/output/i) });
      expect(check('output schema typo', 'mcp-tools-list').status).toBe('passed');
    });
    it('a schema that declares draft-07 is judged by the draft-07 meta-schema', () => {
      expect(check('explicit draft-07 schema', 'mcp-tool-schemas').status).toBe('passed');
    });
  });

  describe('a broken handshake (basic/lifecycle §Version Negotiation)', () => {
    it('is an MCP server whose mcp-initialize fails, not a website', () => {
      const r = results.get('unsupported protocol version')!;
      expect(r.kind).toBe('mcp_server');
      expect(check('unsupported protocol version', 'mcp-initialize')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/1999-01-01|protocol version/i) });
      expect(check('unsupported protocol version', 'public-home-page').status).toBe('not_applicable');
    });
    it('a JSON-RPC service that does not know initialize (-32601) is not taken for an MCP server', () => {
      expect(results.get('other json-rpc service')!.kind).toBe('website');
      expect(check('other json-rpc service', 'mcp-initialize').status).toBe('not_applicable');
    });
  });

  describe('Origin validation (basic/transports §2.0.1: a present, invalid Origin MUST get 403)', () => {
    it('a server that answers 403 to a foreign Origin passes', () => {
      expect(check('origin validated', 'mcp-origin-check').status).toBe('passed');
    });
    it('a server that accepts a foreign Origin fails the check', () => {
      expect(check('spec example names', 'mcp-origin-check')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/Origin/) });
    });
    it('the scanner itself sends no Origin on its normal session, so validated servers still answer it', () => {
      expect(check('origin validated', 'mcp-initialize').status).toBe('passed');
      const foreign = sites.get('origin validated')!.requests.filter((r) => r.origin !== null);
      expect(foreign).toHaveLength(1);
    });
  });
});
