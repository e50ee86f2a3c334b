import type { Artifacts, McpTool } from '../../gather/artifacts';
import { uiResourceUriOf } from '../../gather/mcp-session';
import type { CheckOutcome } from '../types';
import { ALL_KINDS, defineCheck, excerpt, outcome, undecided } from '../define';
import { mcpDiscoveryDocs } from '../signals';
import { isDeadDeclaration } from '../declared-endpoint';
import { validateAgainstMetaSchema } from './json-schema-dialects';

/** Shared applicability: MCP checks need a live session; an OAuth wall means we could not look. */
export function mcpGate(a: Artifacts): CheckOutcome | null {
  if (!a.mcp) return undecided(mcpDiscoveryDocs(a), 'whether the site has an MCP server') ?? outcome('not_applicable', 'No MCP server was found');
  if (a.mcp.auth.required && !a.mcp.initialize.ok) return outcome('couldnt_check', 'The MCP server requires OAuth sign-in before it answers', { url: a.mcp.endpoint, status: a.mcp.auth.status });
  if (!a.mcp.initialize.ok) {
    // A declared server that nothing answers for is the site's broken promise, not something we could not look at.
    if (isDeadDeclaration(a.mcp)) {
      return outcome('failed', `Nothing answers at the MCP server ${a.mcp.discovery.via} names (${a.mcp.endpoint}): ${a.mcp.initialize.error}`, { url: a.mcp.endpoint });
    }
    return a.mcp.initialize.fetchFailure
      ? outcome('couldnt_check', `Could not reach the MCP server: ${a.mcp.initialize.error}`, { url: a.mcp.endpoint })
      : outcome('failed', `The MCP handshake failed: ${a.mcp.initialize.error}${a.mcp.source === 'target' ? '' : ` (server found through ${a.mcp.discovery.via})`}`, { url: a.mcp.endpoint });
  }
  return null;
}

/** The gate's couldnt_check alone: for checks that otherwise do not apply without a session. */
export function unreadMcp(a: Artifacts): CheckOutcome | null {
  const gate = mcpGate(a);
  return gate?.status === 'couldnt_check' ? gate : null;
}

function toolsGate(a: Artifacts): CheckOutcome | { tools: McpTool[] } {
  const gate = mcpGate(a);
  if (gate) return gate.status === 'failed' ? outcome('not_applicable', 'The MCP handshake failed, so there are no tools to judge', gate.evidence) : gate;
  const tools = a.mcp!.tools;
  if (!tools || !tools.ok) return outcome('not_applicable', 'tools/list did not answer', { url: a.mcp!.endpoint });
  if (tools.items.length === 0) return outcome('not_applicable', 'The server lists no tools', { url: a.mcp!.endpoint });
  return { tools: tools.items };
}

function graded(good: number, total: number, what: string, url: string, examples: string[]): CheckOutcome {
  const detail = `${good} of ${total} tools ${what}${examples.length > 0 ? `; not: ${examples.slice(0, 5).join(', ')}` : ''}`;
  if (good === total) return outcome('passed', detail, { url });
  if (good * 2 >= total) return outcome('warning', detail, { url });
  return outcome('failed', detail, { url });
}

export const mcpInitialize = defineCheck({
  id: 'mcp-initialize',
  name: 'MCP handshake (server/discover or initialize)',
  layer: 'usability',
  tier: 'required',
  appliesTo: ALL_KINDS,
  description:
    'The server says who it is and what it supports, by the revision it claims: MCP 2026-07-28 server/discover (server/discover §Response: supportedVersions, capabilities, serverInfo) or the MCP 2025-11-25 initialize handshake (basic/lifecycle §Initialization). We ask server/discover with the 2026-07-28 headers first, then initialize. A server listing an older revision beside 2026-07-28 must also complete that initialize. HTTP+SSE (deprecated since 2025-03-26, still deprecated in 2026-07-28) is a warning, never a failure.',
  fix: 'Implement the Streamable HTTP transport with an official MCP SDK; answer server/discover (MCP 2026-07-28) and, for older clients, initialize; POST /mcp must accept application/json and text/event-stream.',
  evaluate(a) {
    const gate = mcpGate(a);
    if (gate) return gate;
    const mcp = a.mcp!;
    const init = mcp.initialize;
    const found = mcp.source === 'target' ? '' : `; found through ${mcp.discovery.via}`;
    const url = mcp.endpoint;
    if (mcp.modern) {
      const legacy = mcp.revisions.legacy;
      const others = mcp.modern.supportedVersions.filter((v) => v !== init.protocolVersion);
      const also = others.length === 0 ? '' : legacy?.ok ? `; also speaks ${legacy.protocolVersion} (initialize)` : `; lists ${others.join(', ')} too`;
      const detail = `MCP ${init.protocolVersion} (server/discover lists ${mcp.modern.supportedVersions.join(', ')}), server "${init.serverInfo?.name ?? '?'}"${also}${found}`;
      if (!init.serverInfo?.name || !init.capabilities) return outcome('warning', `${detail}; serverInfo or capabilities missing (server/discover §Response Fields)`, { url });
      if (legacy && !legacy.ok) return outcome('warning', `${detail}, but a ${others.join(', ')} initialize failed: ${legacy.error ?? 'no answer'}`, { url });
      return outcome('passed', detail, { url });
    }
    const detail = `MCP ${init.protocolVersion ?? 'unknown'} (initialize; server/discover not answered, so judged by that revision), ${mcp.transport} transport, server "${init.serverInfo?.name ?? '?'}"${found}`;
    if (!init.serverInfo?.name || !init.capabilities) return outcome('warning', `${detail}; serverInfo or capabilities missing`, { url });
    if (mcp.transport === 'sse') return outcome('warning', `${detail}; HTTP+SSE is deprecated since 2025-03-26 (basic/transports §Backwards Compatibility)`, { url, fix: 'Move to the Streamable HTTP transport.' });
    return outcome('passed', detail, { url });
  },
});

export const mcpToolsList = defineCheck({
  id: 'mcp-tools-list',
  name: 'tools/list returns tools',
  layer: 'usability',
  tier: 'required',
  appliesTo: ALL_KINDS,
  description: 'tools/list answers (following pagination) with at least one tool.',
  fix: 'Register at least one tool and make sure tools/list answers without authentication errors.',
  evaluate(a) {
    const gate = mcpGate(a);
    if (gate) return gate.status === 'failed' ? outcome('not_applicable', 'The MCP handshake failed', gate.evidence) : gate;
    const tools = a.mcp!.tools;
    if (!tools || !tools.ok) return outcome('failed', `tools/list failed: ${tools?.error ?? 'no answer'}`, { url: a.mcp!.endpoint });
    if (tools.items.length === 0) return outcome('failed', 'tools/list returned no tools', { url: a.mcp!.endpoint });
    return outcome('passed', `${tools.items.length} tool(s): ${tools.items.slice(0, 8).map((t) => t.name).join(', ')}`, { url: a.mcp!.endpoint });
  },
});

function schemaProperties(tool: McpTool): Record<string, { description?: unknown }> | null {
  const schema = tool.inputSchema as { type?: unknown; properties?: unknown } | undefined;
  if (!schema || typeof schema !== 'object' || schema.type !== 'object') return null;
  return (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<string, { description?: unknown }>;
}

/** Every input and output schema that is not valid against its dialect's meta-schema, as "tool (input): reason". */
function invalidSchemas(tools: McpTool[]): { invalid: string[]; unjudged: string[] } {
  const invalid: string[] = [];
  const unjudged: string[] = [];
  for (const tool of tools) {
    for (const [which, schema] of [['input', tool.inputSchema], ['output', tool.outputSchema]] as const) {
      if (which === 'output' && schema === undefined) continue;
      const verdict = validateAgainstMetaSchema(schema);
      if (verdict.valid === false) invalid.push(`${tool.name} (${which} schema, ${verdict.dialect}): ${excerpt(verdict.error, 160)}`);
      else if (verdict.valid === null) unjudged.push(`${tool.name} (${which}, $schema ${excerpt(verdict.dialect, 80)})`);
      // server/tools §Tool: both schemas describe an object.
      else if ((schema as { type?: unknown }).type !== 'object') invalid.push(`${tool.name} (${which} schema): the root is not "type": "object"`);
    }
  }
  return { invalid, unjudged };
}

export const mcpToolSchemas = defineCheck({
  id: 'mcp-tool-schemas',
  name: 'Tool inputs have described JSON Schemas',
  layer: 'usability',
  tier: 'required',
  appliesTo: ALL_KINDS,
  description:
    'Every tool input and output schema is a valid JSON Schema object schema, checked against the meta-schema of its dialect (MCP 2025-11-25 basic §JSON Schema Usage: 2020-12 unless $schema names another), and its parameters carry descriptions.',
  fix: 'Fix the schema errors named in the evidence (e.g. "type": "strnig"), then give every tool parameter a description (e.g. z.string().describe("IATA airport code")), so agents fill arguments correctly.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const { invalid, unjudged } = invalidSchemas(gate.tools);
    if (invalid.length > 0) return outcome('failed', `${invalid.length} invalid schema(s): ${invalid.slice(0, 3).join('; ')}`, { url: a.mcp!.endpoint });
    let params = 0;
    let described = 0;
    const undocumented: string[] = [];
    for (const tool of gate.tools) {
      for (const [name, prop] of Object.entries(schemaProperties(tool) ?? {})) {
        params++;
        if (typeof prop?.description === 'string' && prop.description.trim().length > 0) described++;
        else undocumented.push(`${tool.name}.${name}`);
      }
    }
    const note = unjudged.length > 0 ? `; dialect not checked: ${unjudged.slice(0, 3).join(', ')}` : '';
    if (params === 0) return outcome('passed', `All ${gate.tools.length} tool schemas are valid object schemas (no parameters)${note}`, { url: a.mcp!.endpoint });
    const detail = `All schemas valid; ${described} of ${params} parameters described${undocumented.length ? `; missing: ${undocumented.slice(0, 6).join(', ')}` : ''}${note}`;
    if (described === params) return outcome('passed', detail, { url: a.mcp!.endpoint });
    return outcome(described * 2 >= params ? 'warning' : 'failed', detail, { url: a.mcp!.endpoint });
  },
});

const MIN_DESCRIPTION = 40;
const MAX_DESCRIPTION = 2000;

export const mcpToolDescriptions = defineCheck({
  id: 'mcp-tool-descriptions',
  name: 'Tools have useful descriptions',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description: `Each tool description says what it does and when to use it (${MIN_DESCRIPTION}-${MAX_DESCRIPTION} characters).`,
  fix: 'Write descriptions that state purpose, when to use the tool, side effects and what it returns, in one or two sentences.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const bad = gate.tools.filter((t) => {
      const length = (t.description ?? '').trim().length;
      return length < MIN_DESCRIPTION || length > MAX_DESCRIPTION;
    });
    return graded(gate.tools.length - bad.length, gate.tools.length, 'have a useful description', a.mcp!.endpoint, bad.map((t) => `${t.name} ("${excerpt(t.description ?? '', 40)}")`));
  },
});

export const mcpToolAnnotations = defineCheck({
  id: 'mcp-tool-annotations',
  name: 'Tools carry behaviour annotations',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description: 'Annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) let clients decide what needs confirmation.',
  fix: 'Add annotations to every tool, at least readOnlyHint, and destructiveHint for tools that change data.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const annotated = gate.tools.filter((t) => t.annotations && (typeof t.annotations.readOnlyHint === 'boolean' || typeof t.annotations.destructiveHint === 'boolean'));
    return graded(annotated.length, gate.tools.length, 'are annotated', a.mcp!.endpoint, gate.tools.filter((t) => !annotated.includes(t)).map((t) => t.name));
  },
});

/** MCP 2025-11-25 server/tools §Tool Names: 1-128 characters of A-Z, a-z, 0-9, underscore, hyphen and dot. */
const SPEC_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** The stricter pattern some clients and model APIs still enforce (no dot, at most 64 characters). */
const PORTABLE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const mcpToolNames = defineCheck({
  id: 'mcp-tool-names',
  name: 'Tool names are safe and unique',
  layer: 'usability',
  tier: 'required',
  appliesTo: ALL_KINDS,
  description:
    'Tool names follow MCP 2025-11-25 (server/tools §Tool Names: 1-128 characters of A-Za-z0-9_-.) and are unique. Valid names that some clients reject (a dot, more than 64 characters) get a warning.',
  fix: 'Rename tools to letters, digits, underscore, hyphen and dot, at most 128 characters, each name once; for the widest client support, avoid dots and stay within 64 characters.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const invalid = [...new Set(gate.tools.filter((t) => !SPEC_NAME.test(t.name)).map((t) => excerpt(t.name, 80)))];
    const seen = new Set<string>();
    const duplicates = gate.tools.filter((t) => (seen.has(t.name) ? true : (seen.add(t.name), false))).map((t) => t.name);
    if (invalid.length > 0 || duplicates.length > 0) {
      return outcome('failed', [invalid.length ? `outside the MCP name rules: ${invalid.join(', ')}` : '', duplicates.length ? `duplicated: ${duplicates.join(', ')}` : ''].filter(Boolean).join('; '), { url: a.mcp!.endpoint });
    }
    const fragile = gate.tools.filter((t) => !PORTABLE_NAME.test(t.name)).map((t) => excerpt(t.name, 80));
    if (fragile.length > 0) {
      return outcome('warning', `${gate.tools.length} valid, unique names; some clients accept only ^[a-zA-Z0-9_-]{1,64}$ and would reject: ${fragile.slice(0, 5).join(', ')}`, {
        url: a.mcp!.endpoint,
        fix: 'Optional: replace dots with underscores or hyphens and keep names within 64 characters, so every client loads the tools.',
      });
    }
    return outcome('passed', `${gate.tools.length} valid, unique names`, { url: a.mcp!.endpoint });
  },
});

const HIDDEN_UNICODE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
const INJECTION = /ignore (all )?(previous|prior|above) instructions|disregard (the )?(system|previous)|<important>|do not (tell|inform|mention to) the user|system prompt|exfiltrat|send .{0,40}(ssh|private key|password|credential)/i;

export const mcpSafetyLint = defineCheck({
  id: 'mcp-safety-lint',
  name: 'Tool metadata has no hidden instructions',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description: 'Tool names, descriptions and parameter descriptions contain no invisible Unicode and no prompt-injection phrases (tool poisoning).',
  fix: 'Remove invisible characters and any instructions aimed at the model ("ignore previous instructions", "<IMPORTANT>", "do not tell the user") from tool metadata.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    for (const tool of gate.tools) {
      const texts = [tool.name, tool.title ?? '', tool.description ?? '', JSON.stringify(tool.inputSchema ?? {})];
      const joined = texts.join('\n');
      if (HIDDEN_UNICODE.test(joined)) return outcome('failed', `Tool ${tool.name} contains invisible Unicode characters`, { url: a.mcp!.endpoint, excerpt: excerpt(JSON.stringify(tool.description ?? '')) });
      const injection = INJECTION.exec(joined);
      if (injection) return outcome('failed', `Tool ${tool.name} contains a prompt-injection phrase: "${injection[0]}"`, { url: a.mcp!.endpoint, excerpt: excerpt(tool.description ?? '') });
    }
    return outcome('passed', `${gate.tools.length} tool(s) checked, nothing suspicious`, { url: a.mcp!.endpoint });
  },
});

export const mcpOutputSchema = defineCheck({
  id: 'mcp-output-schema',
  name: 'Tools declare structured output',
  layer: 'usability',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description: 'outputSchema on tools (with structuredContent results) lets agents use results without parsing prose.',
  fix: 'Declare outputSchema for tools that return data and return structuredContent alongside text.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const withSchema = gate.tools.filter((t) => t.outputSchema && typeof t.outputSchema === 'object');
    if (withSchema.length === 0) return outcome('failed', 'No tool declares an outputSchema', { url: a.mcp!.endpoint });
    if (withSchema.length === gate.tools.length) return outcome('passed', 'Every tool declares an outputSchema', { url: a.mcp!.endpoint });
    return outcome('warning', `${withSchema.length} of ${gate.tools.length} tools declare an outputSchema`, { url: a.mcp!.endpoint });
  },
});

export const mcpAppsUiResource = defineCheck({
  id: 'mcp-apps-ui-resource',
  name: 'MCP Apps views are served correctly',
  layer: 'usability',
  tier: 'emerging',
  label: 'beta',
  appliesTo: ALL_KINDS,
  description: 'Tools that link a view (_meta.ui.resourceUri) point to a ui:// resource that resources/read returns as text/html;profile=mcp-app with HTML.',
  fix: 'Serve each ui:// resource with mimeType "text/html;profile=mcp-app" and a complete HTML document, as the MCP Apps extension specifies.',
  evaluate(a) {
    const gate = toolsGate(a);
    if ('status' in gate) return gate;
    const linking = gate.tools.filter((t) => uiResourceUriOf(t) !== null);
    if (linking.length === 0) return outcome('not_applicable', 'No tool links a UI resource');
    const resources = a.mcp!.uiResources;
    const bad = resources.filter((r) => !r.ok || !/^text\/html;\s*profile=mcp-app$/i.test(r.mimeType ?? '') || !/<html|<!doctype html/i.test(r.text ?? ''));
    if (resources.length > 0 && bad.length === 0) return outcome('passed', `${resources.length} view(s) served as text/html;profile=mcp-app: ${resources.map((r) => r.uri).join(', ')}`, { url: a.mcp!.endpoint });
    const first = bad[0];
    return outcome('failed', first ? `${first.uri}: ${first.error ?? `mimeType ${first.mimeType ?? 'missing'}`}` : 'Linked views could not be read', { url: a.mcp!.endpoint });
  },
});

export const mcpAppsCsp = defineCheck({
  id: 'mcp-apps-csp',
  name: 'MCP Apps views declare their CSP domains',
  layer: 'usability',
  tier: 'emerging',
  label: 'beta',
  bonus: true,
  appliesTo: ALL_KINDS,
  description: 'UI resources list the domains they connect to in _meta.ui.csp, so hosts can sandbox them tightly.',
  fix: 'Add _meta.ui.csp {connectDomains, resourceDomains} to each ui:// resource.',
  evaluate(a) {
    const resources = a.mcp?.uiResources.filter((r) => r.ok) ?? [];
    if (resources.length === 0) return unreadMcp(a) ?? outcome('not_applicable', 'No UI resources were read');
    const declared = resources.filter((r) => (r.meta?.ui as { csp?: unknown } | undefined)?.csp);
    if (declared.length === resources.length) return outcome('passed', 'Every view declares _meta.ui.csp', { url: a.mcp!.endpoint });
    return outcome('failed', `${resources.length - declared.length} view(s) without _meta.ui.csp`, { url: a.mcp!.endpoint });
  },
});
