// The HTML document around a page: <head> from head.ts, the React tree rendered to a string, and the page's data as
// JSON for hydration (escaped so no string in it can close the script element).
import { renderToString } from 'react-dom/server';
import { App } from '../pages/App';
import type { PagePayload } from '../shared/page-data';
import type { BuiltAssets } from './assets';
import type { Head } from './head';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON inside <script>: `<` becomes \u003c, so "</script>" or "<!--" in data cannot end the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function renderDocument(payload: PagePayload, head: Head, publicUrl: string, assets: BuiltAssets, hostScripts: string[] = []): string {
  const body = renderToString(<App data={payload.data} />);
  const canonical = `${publicUrl}${head.canonicalPath}`;
  const styles = assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('');
  const jsonLd = head.jsonLd.map((doc) => `<script type="application/ld+json">${scriptJson(doc)}</script>`).join('');
  return '<!doctype html>'
    + '<html lang="en"><head><meta charset="utf-8">'
    + '<meta name="viewport" content="width=device-width, initial-scale=1">'
    + `<title>${escapeHtml(head.title)}</title>`
    + `<meta name="description" content="${escapeHtml(head.description)}">`
    + `<link rel="canonical" href="${escapeHtml(canonical)}">`
    + `<link rel="alternate" type="text/markdown" href="${escapeHtml(canonical)}" title="This page as Markdown (send Accept: text/markdown)">`
    + '<link rel="service-desc" type="application/json" href="/openapi.json">'
    + '<link rel="service-doc" type="text/html" href="/docs">'
    + '<meta name="color-scheme" content="light dark">'
    + '<link rel="icon" href="data:,">'
    + styles
    + `<script type="module" src="${assets.script}"></script>`
    + hostScripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('')
    + jsonLd
    + '</head><body>'
    + `<div id="app">${body}</div>`
    + `<script type="application/json" id="page-data">${scriptJson(payload)}</script>`
    + '</body></html>';
}
