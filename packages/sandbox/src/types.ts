import type { IncomingHttpHeaders } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// Mirrors @arl/scanner's unions; the sandbox cannot import the scanner (the scanner's tests import the sandbox).
export type Grade = 'A+' | 'A' | 'B' | 'C' | 'D' | 'F';
export type TargetKind = 'website' | 'mcp_server' | 'mcp_app';
export type ScanEnding = 'finished' | 'failed' | 'interrupted' | 'sign_in_required';

export type PersonaName =
  | 'exemplary'
  | 'typical-saas'
  | 'content-site'
  | 'hostile'
  | 'sign-in-wall'
  | 'bare-mcp'
  | 'mcp-app'
  | 'oauth-mcp'
  | 'slow'
  | 'broken'
  | 'garbage';

export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  userAgent: string;
  /** e.g. http://exemplary-co.test:41234, so documents can carry absolute URLs */
  origin: string;
  body: string;
}

export interface SandboxResponse {
  status?: number;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  /** Serve this response after an extra pause (ms), on top of the sandbox latency. */
  delayMs?: number;
}

export type Route = SandboxResponse | ((req: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>);

export interface McpEndpoint {
  path: string;
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
  /** Registers tools and resources on a fresh server for each request (the endpoint is stateless). */
  register(server: McpServer, origin: string): void;
  /** When set, requests need `Authorization: Bearer <token>`; others get 401 pointing at protected-resource metadata. */
  requireBearerToken?: string;
  /** Refuse a request whose Origin is present and not the persona's own with 403 (MCP 2025-11-25 transports §2.0.1). */
  validateOrigin?: boolean;
}

export interface Persona {
  name: PersonaName;
  /** A distinct registrable domain per persona; the app derives company identity from it. */
  hostname: string;
  /** '/' for sites, '/mcp' for MCP servers: the URL a user would submit. */
  path: string;
  expected: { kind: TargetKind; ending: ScanEnding; grades: Grade[] };
  description: string;
  /** Added to every response of this persona, on top of the sandbox-wide latency. */
  extraLatencyMs?: number;
  /** Runs before the routes: bot blocking, sign-in walls. Return undefined to fall through. */
  gate?: (req: SandboxRequest) => SandboxResponse | undefined;
  routes: Record<string, Route>;
  mcp?: McpEndpoint;
  notFound?: Route;
}
