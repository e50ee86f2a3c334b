import type { Artifacts } from '../gather/artifacts';
import { jsonLdTypes } from '../util/html-summary';
import { cleanSiteText } from '../util/site-text';

const GENERIC_TITLE = /^(home|welcome|sign in|sign up|log in|login|pricing|docs|documentation)$/i;
const NAMED_TYPES = ['Organization', 'Corporation', 'WebSite', 'SoftwareApplication'];

/**
 * og:site_name, then a JSON-LD Organization/WebSite name, then the title's brand part, then the MCP server name: the
 * first that holds visible text once it has passed the site-text door (util/site-text.ts).
 */
export function siteNameOf(a: Artifacts): string | null {
  const html = a.homeHtml;
  const og = cleanSiteText(html?.ogSiteName);
  if (og) return og;
  for (const type of NAMED_TYPES) {
    const item = html?.jsonLd.find((i) => jsonLdTypes(i).includes(type)) as { name?: unknown } | undefined;
    const name = typeof item?.name === 'string' ? cleanSiteText(item.name) : null;
    if (name) return name;
  }
  if (html?.title && a.home?.status && a.home.status < 400) {
    // "Sign in – Acme" names Acme, not "Sign in".
    const title = cleanSiteText(html.title, Number.MAX_SAFE_INTEGER) ?? '';
    const parts = title.split(/\s+[|–—-]\s+/).map((p) => p.trim()).filter((p) => p && !GENERIC_TITLE.test(p));
    const brand = cleanSiteText(parts[0]);
    if (brand) return brand;
  }
  const info = a.mcp?.initialize.serverInfo;
  return cleanSiteText(info?.title) ?? cleanSiteText(info?.name);
}
