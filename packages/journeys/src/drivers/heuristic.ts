// The deterministic agent: no model. Opens the start page, reads llms.txt like an agent would, then follows the
// most promising unvisited same-site link for the task until the evidence is complete or a budget runs out.
import { pathOf } from '../evidence';
import type { PageLink } from '../page/page-view';
import { BudgetExhausted, type DriverContext } from '../session';
import type { TaskDefinition } from '../tasks';
import type { DriverVerdict, JourneyDriver } from '../types';

interface Candidate {
  link: PageLink;
  score: number;
  /** Order of discovery: ties go to the link seen first (navigation before footers). */
  order: number;
}

export function createHeuristicDriver(): JourneyDriver {
  return { name: 'heuristic', run: runHeuristic };
}

async function runHeuristic({ session, task, startUrl }: DriverContext): Promise<DriverVerdict> {
  const candidates = new Map<string, Candidate>();
  const visited = new Set<string>();
  let order = 0;
  const site = siteOf(startUrl);
  const origin = new URL(startUrl).origin;
  const learn = (links: readonly PageLink[]): void => {
    for (const found of links) {
      const link = { ...found, url: onOrigin(found.url, origin) };
      if (!/^https?:$/.test(protocolOf(link.url)) || visited.has(link.url) || !sameSite(site, link.url)) continue;
      const score = scoreLink(task, link);
      const known = candidates.get(link.url);
      if (!known) candidates.set(link.url, { link, score, order: order++ });
      else if (score > known.score) known.score = score;
    }
  };

  try {
    const start = await session.open(startUrl, 'open_url');
    visited.add(startUrl).add(start.finalUrl);
    if (task.complete(session.evidence)) return {};
    learn(start.links);
    // llms.txt is where a site tells agents what matters; an agent looks there whatever the home page links.
    const llms = new URL('/llms.txt', start.finalUrl).href;
    if (start.access !== 'blocked' && !visited.has(llms)) {
      candidates.delete(llms);
      const page = await session.open(llms, 'open_url');
      visited.add(llms).add(page.finalUrl);
      if (page.access === 'ok' && page.contentType.includes('text/') && !page.contentType.includes('html')) learn(page.links);
    }
    if (start.access === 'blocked' || start.access === 'sign_in') {
      // A wall at the door: an agent does not keep knocking at every link of a login page.
      if (candidates.size === 0 || start.access === 'blocked') return { stoppedBecause: `the start page was a wall (${start.accessReason ?? start.access})` };
    }
    for (;;) {
      if (task.complete(session.evidence)) return {};
      const next = best(candidates);
      if (!next) return { stoppedBecause: 'no promising link was left to follow' };
      candidates.delete(next.link.url);
      visited.add(next.link.url);
      const page = await session.open(next.link.url, 'follow_link');
      visited.add(page.finalUrl);
      if (page.access === 'ok') learn(page.links);
    }
  } catch (err) {
    if (err instanceof BudgetExhausted) return { stoppedBecause: err.message };
    throw err;
  }
}

function best(candidates: Map<string, Candidate>): Candidate | undefined {
  let top: Candidate | undefined;
  for (const c of candidates.values()) {
    if (c.score <= 0) continue;
    if (!top || c.score > top.score || (c.score === top.score && c.order < top.order)) top = c;
  }
  return top;
}

export function scoreLink(task: TaskDefinition, link: PageLink): number {
  const haystacks = [link.text, decodeURIComponent(pathOf(link.url)).replace(/[-_/]+/g, ' ')];
  let score = 0;
  for (const [pattern, weight] of task.linkSignals) {
    if (haystacks.some((h) => pattern.test(h))) score += weight;
  }
  // Shallow pages first: a site's main sections are the likeliest answers.
  const depth = pathOf(link.url).split('/').filter(Boolean).length;
  return score - Math.max(0, depth - 2);
}

/** The start host without a leading www.; links to it or its subdomains (docs., help.) stay on site. */
function siteOf(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
}

function sameSite(site: string, url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === site || host.endsWith(`.${site}`) || site.endsWith(`.${host}`);
  } catch {
    return false;
  }
}

/** The same hostname on another scheme or port is the same site: browse it where we already are, not twice. */
function onOrigin(url: string, origin: string): string {
  try {
    const u = new URL(url);
    const o = new URL(origin);
    if (u.hostname !== o.hostname || u.origin === o.origin || !/^https?:$/.test(u.protocol)) return url;
    return new URL(u.pathname + u.search, origin).href;
  } catch {
    return url;
  }
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
