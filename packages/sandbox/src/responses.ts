import type { SandboxResponse } from './types';

export function html(body: string, status = 200, headers: Record<string, string> = {}): SandboxResponse {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body };
}

export function text(body: string, contentType = 'text/plain; charset=utf-8', status = 200): SandboxResponse {
  return { status, headers: { 'content-type': contentType }, body };
}

export function json(value: unknown, status = 200, contentType = 'application/json'): SandboxResponse {
  return { status, headers: { 'content-type': contentType }, body: JSON.stringify(value, null, 2) };
}

export function redirect(location: string, status = 302): SandboxResponse {
  return { status, headers: { location }, body: '' };
}

export interface PageOptions {
  title: string;
  description?: string;
  siteName?: string;
  jsonLd?: unknown[];
  head?: string;
  body: string;
}

export function page(options: PageOptions): string {
  const meta = [
    options.description ? `<meta name="description" content="${escapeAttr(options.description)}">` : '',
    options.siteName ? `<meta property="og:site_name" content="${escapeAttr(options.siteName)}">` : '',
    ...(options.jsonLd ?? []).map((doc) => `<script type="application/ld+json">${JSON.stringify(doc)}</script>`),
    options.head ?? '',
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${options.title}</title>
${meta}
</head>
<body>
${options.body}
</body>
</html>`;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export const AI_AGENT_PATTERN = /GPTBot|OAI-SearchBot|ChatGPT-User|ClaudeBot|Claude-SearchBot|Claude-User|anthropic-ai|PerplexityBot|Perplexity-User|CCBot|Google-Extended|Bytespider|Applebot-Extended/i;
