import { freePort, packageBin, startNodeProcess, type RunningServer } from './processes';

/**
 * The MCP project's reference server, run as published (`mcp-server-everything streamableHttp|sse`).
 * Streamable HTTP serves /mcp; the deprecated HTTP+SSE transport opens its stream at /sse.
 */
export async function startServerEverything(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const port = await freePort();
  const server = await startNodeProcess(packageBin('@modelcontextprotocol/server-everything'), [mode], {
    env: { PORT: String(port) },
    ready: /(listening|running) on port/i,
  });
  const origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}${mode === 'sse' ? '/sse' : '/mcp'}`, origin, close: server.stop };
}

/** The MCP Apps "basic server (vanilla JS)" example from the ext-apps project: one tool linking a ui:// view, at /mcp. */
export async function startBasicMcpApp(): Promise<RunningServer> {
  const port = await freePort();
  const server = await startNodeProcess(packageBin('@modelcontextprotocol/server-basic-vanillajs'), [], {
    env: { PORT: String(port) },
    ready: /listening on http/i,
  });
  const origin = `http://127.0.0.1:${port}`;
  return { url: `${origin}/mcp`, origin, close: server.stop };
}

/** oauth2-mock-server's CLI: an OpenID provider (discovery at /.well-known/openid-configuration). `url` is its issuer, which it names with "localhost". */
export async function startOAuthMockServer(): Promise<RunningServer> {
  const server = await startNodeProcess(packageBin('oauth2-mock-server'), ['-a', '127.0.0.1', '-p', '0'], {
    ready: /issuer is (http:\/\/[^\s]+)/i,
  });
  const issuer = server.match[1];
  return { url: issuer, origin: new URL(issuer).origin, close: server.stop };
}
