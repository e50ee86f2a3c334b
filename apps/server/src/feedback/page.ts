// The card as a small HTML page for people. Every value, the owner's text included, goes through escapeHtml: the
// page shows strings, it never interprets them. It carries no script, and its Content-Security-Policy forbids any.
import type { FeedbackSchemas } from '@arl/contract';

type Card = FeedbackSchemas['FeedbackCard'];

export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function exampleReport(card: Pick<Card, 'signedOnly'>): Record<string, unknown> {
  return {
    observation: 'The quick-start says to send an API key header, but every request with it answered 401 invalid_token.',
    goal: 'List my projects through the REST API',
    outcome: 'friction',
    category: 'documentation',
    surface: 'api',
    reference: 'https://example.com/docs/quick-start',
    agent: 'ExampleAgent/2.1',
    ...(card.signedOnly ? { invite: '<the invitation token you were given>' } : {}),
    environment: { client: 'example-cli', model: 'example-model-1', os: 'linux', locale: 'en-US' },
    metadata: { attempt: 2, retried: true },
  };
}

export function renderCardPage(card: Card, cardUrl: string): string {
  const e = escapeHtml;
  const example = JSON.stringify(exampleReport(card), null, 2);
  const curl = `curl -X POST '${card.collectionUrl}' \\\n  -H 'content-type: application/json' \\\n  -d @report.json`;
  const status = card.accepting
    ? card.signedOnly
      ? 'Accepting reports from invited reporters: include your invitation token as <code>invite</code>.'
      : 'Accepting reports.'
    : 'Not accepting reports at the moment.';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Feedback: ${e(card.name)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
pre{background:#f4f4f4;padding:1rem;overflow:auto;white-space:pre-wrap;word-break:break-word}
.text{white-space:pre-wrap}dt{font-weight:600}code{background:#f4f4f4;padding:0 .2em}
</style>
</head>
<body>
<h1>Feedback for ${e(card.name)}</h1>
<p>${status}</p>
<h2>Invitation</h2>
<p class="text">${e(card.invitation)}</p>
<h2>What a useful report contains</h2>
<p class="text">${e(card.guidance)}</p>
<h2>How to send a report</h2>
<dl>
<dt>Send it to</dt><dd><code>POST ${e(card.collectionUrl)}</code></dd>
<dt>Body schema</dt><dd><a href="${e(card.reportSchemaUrl)}">${e(card.reportSchemaUrl)}</a> (JSON Schema 2020-12; only <code>observation</code> and <code>outcome</code> are required${card.signedOnly ? ', and <code>invite</code> for this project' : ''})</dd>
<dt>Card as JSON</dt><dd><a href="${e(cardUrl)}">${e(cardUrl)}</a></dd>
</dl>
<h2>Example report</h2>
<pre>${e(example)}</pre>
<pre>${e(curl)}</pre>
<p>An identical report sent again is recognised: you get the first receipt back with <code>"repeat": true</code>.</p>
</body>
</html>
`;
}
