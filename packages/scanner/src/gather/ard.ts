import { parseJsonObject } from '../util/json';
import { parseLinkHeader } from '../util/link-header';
import { httpUrl } from '../util/url';
import type { Artifacts, ArdSource } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

const ACCEPT = 'application/json,*/*;q=0.5';

/**
 * Agentic Resource Discovery (ARD v0.91 §5.1): the manifest is named by an `Agentmap:` line in robots.txt or a
 * rel="ard" link (HTML or Link header), or sits at /.well-known/ard.json; the predecessor names (rel="ai-catalog",
 * /.well-known/ai-catalog.json) are consulted after them. Tried in that order, one fetch each, first JSON answer wins.
 */
export async function gatherArd(fetcher: DocFetcher, a: Artifacts): Promise<void> {
  const candidates: Array<{ url: string; via: ArdSource['via'] }> = [];
  const add = (href: string | undefined, via: ArdSource['via']): void => {
    const url = httpUrl(href, a.home?.finalUrl ?? a.targetUrl);
    if (url && !candidates.some((c) => c.url === url)) candidates.push({ url, via });
  };
  const linkOf = (rel: string): string | undefined =>
    parseLinkHeader(a.home?.headers.link ?? '', a.home?.finalUrl ?? a.targetUrl).find((l) => l.rel.includes(rel))?.href ??
    a.homeHtml?.links.find((l) => l.rel.split(/\s+/).includes(rel))?.href;
  add(agentmapLine(a), 'agentmap');
  add(linkOf('ard'), 'link');
  add('/.well-known/ard.json', 'well-known');
  add(linkOf('ai-catalog'), 'legacy-link');
  add('/.well-known/ai-catalog.json', 'legacy-well-known');
  a.ardTried = [];
  for (const candidate of candidates.slice(0, 4)) {
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
