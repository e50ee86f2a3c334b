import { AI_AGENT_PATTERN, html, page, text } from '../responses';
import type { Persona } from '../types';

const CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<script>window._cf_chl_opt={cvId: '3', cZone: 'hostile.test', cType: 'managed'};</script></head>
<body><div class="main-wrapper"><h1>Checking if the site connection is secure</h1>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></div></body></html>`;

/** Blocks AI agents outright and hides its content behind JavaScript. */
export const hostile: Persona = {
  name: 'hostile',
  hostname: 'hostile-corp.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['F', 'D'] },
  description: 'Disallows every AI bot in robots.txt, answers AI user agents with 403 and a Cloudflare-style challenge, and renders only with JavaScript.',
  gate(req) {
    if (req.path === '/robots.txt') return undefined;
    if (AI_AGENT_PATTERN.test(req.userAgent)) {
      return { status: 403, headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare' }, body: CHALLENGE };
    }
    return undefined;
  },
  routes: {
    '/': html(page({ title: 'Hostile Corp', body: '<div id="root"></div><script src="/static/app.js"></script><noscript>You need to enable JavaScript to run this app.</noscript>' })),
    '/robots.txt': text(
      ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User', 'CCBot', 'Google-Extended']
        .map((bot) => `User-agent: ${bot}\nDisallow: /\n`)
        .join('\n') + '\nUser-agent: *\nAllow: /\n',
    ),
    '/pricing': html(page({ title: 'Pricing', body: '<div id="root"></div><script src="/static/app.js"></script>' })),
  },
};
