export type { Grade, McpEndpoint, Persona, PersonaName, Route, SandboxRequest, SandboxResponse, ScanEnding, TargetKind } from './types';
export { PERSONAS } from './personas';
export { startSandbox, createPersonaHandler } from './server';
export type { Sandbox, SandboxLookup, SandboxOptions } from './server';
export { html, json, page, redirect, text, AI_AGENT_PATTERN } from './responses';
export { serveMcp, protectedResourceMetadataUrl } from './mcp-endpoint';
