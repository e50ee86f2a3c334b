import { parseJsonObject } from '../util/json';
import { parseLinkHeader } from '../util/link-header';
import { httpUrl } from '../util/url';
import type { Artifacts, ArdSource } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

const ACCEPT = 'application/ai-catalog+json,application/json;q=0.9,*/*;q=0.5';

/**
 * Agentic Resource Discovery publishes an AI Catalog (`application/ai-catalog+json`). Agents look for it the way ARD
 * names: a `Link` header or HTML `<link>` with rel="ai-catalog", an `Agentmap:` line in robots.txt, then the
 * well-known URI `/.well-known/ai-catalog.json`. Tried in that order, one fetch each, first JSON answer wins.
 */
export async function gatherArd(fetcher: DocFetcher, a: Artifacts): Promise<void> {
  const candidates: Array<{ url: string; via: ArdSource['via'] }> = [];
  const add = (href: string | undefined, via: ArdSource['via']): void => {
    const url = httpUrl(href, a.home?.finalUrl ?? a.targetUrl);
    if (url && !candidates.some((c) => c.url === url)) candidates.push({ url, via });
  };
  const linkHref =
    parseLinkHeader(a.home?.headers.link ?? '', a.home?.finalUrl ?? a.targetUrl).find((l) => l.rel.includes('ai-catalog'))?.href ??
    a.homeHtml?.links.find((l) => l.rel.split(/\s+/).includes('ai-catalog'))?.href;
  add(linkHref, 'link');
  add(agentmapLine(a), 'agentmap');
  add('/.well-known/ai-catalog.json', 'well-known');
  a.ardTried = [];
  for (const candidate of candidates) {
    const doc = await fetcher.get(candidate.url, { headers: { accept: ACCEPT } });
    a.ardTried.push(doc);
    if (doc.status === 200 && parseJsonObject(doc.body)) {
      a.ard = { doc, via: candidate.via };
      return;
    }
  }
}

function agentmapLine(a: Artifacts): string | undefined {
  if (a.robots?.status !== 200) return undefined;
  return /^\s*agentmap\s*:\s*(\S+)/im.exec(a.robots.body)?.[1];
}
