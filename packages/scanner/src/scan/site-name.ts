import type { Artifacts } from '../gather/artifacts';
import { jsonLdTypes } from '../util/html-summary';

const GENERIC_TITLE = /^(home|welcome|sign in|sign up|log in|login|pricing|docs|documentation)$/i;
const NAMED_TYPES = ['Organization', 'Corporation', 'WebSite', 'SoftwareApplication'];

/** og:site_name, then a JSON-LD Organization/WebSite name, then the title's brand part, then the MCP server name. */
export function siteNameOf(a: Artifacts): string | null {
  const html = a.homeHtml;
  if (html?.ogSiteName) return html.ogSiteName;
  for (const type of NAMED_TYPES) {
    const item = html?.jsonLd.find((i) => jsonLdTypes(i).includes(type)) as { name?: unknown } | undefined;
    if (typeof item?.name === 'string' && item.name.trim()) return item.name.trim();
  }
  if (html?.title && a.home?.status && a.home.status < 400) {
    // "Sign in – Acme" names Acme, not "Sign in".
    const parts = html.title.split(/\s+[|–—-]\s+/).map((p) => p.trim()).filter((p) => p && !GENERIC_TITLE.test(p));
    if (parts[0]) return parts[0].slice(0, 120);
  }
  const info = a.mcp?.initialize.serverInfo;
  return info?.title ?? info?.name ?? null;
}
