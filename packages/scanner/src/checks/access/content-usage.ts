import type { Artifacts } from '../../gather/artifacts';
import { defineCheck, docEvidence, outcome, unreachable, WEBSITE } from '../define';

/** draft-ietf-aipref-vocab categories; a value is y or n. */
const CATEGORIES = new Set(['bots', 'train-ai', 'train-genai', 'search', 'ai-use']);

export function parsePreferences(value: string): { known: string[]; unknown: string[] } {
  const known: string[] = [];
  const unknown: string[] = [];
  for (const part of value.split(',')) {
    const [key, val] = part.split('=').map((s) => s.trim().toLowerCase());
    if (!key) continue;
    if (CATEGORIES.has(key) && (val === 'y' || val === 'n')) known.push(`${key}=${val}`);
    else unknown.push(part.trim());
  }
  return { known, unknown };
}

/** Content-Usage rules of robots.txt (draft-ietf-aipref-attach §robots.txt), comments dropped. */
export function contentUsageLines(a: Artifacts): string[] {
  return a.robots?.status === 200 ? [...a.robots.body.matchAll(/^\s*content-usage\s*:\s*(.+)$/gim)].map((m) => m[1].replace(/#.*$/, '').trim()) : [];
}

export const contentUsage = defineCheck({
  id: 'content-usage',
  name: 'Content-Usage states AI usage preferences (IETF AIPREF)',
  layer: 'access',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description:
    'The IETF AI Preferences drafts: a Content-Usage rule in robots.txt or a Content-Usage HTTP header field (draft-ietf-aipref-attach) using the draft-ietf-aipref-vocab categories (e.g. train-ai=n, search=y). Read beside Content-Signal, which it may replace.',
  fix: 'Add "Content-Usage: train-ai=n, search=y" (your choice of values) to the User-agent: * group of robots.txt, or send it as a Content-Usage response header.',
  evaluate(a) {
    const header = a.home?.headers['content-usage'];
    const lines = contentUsageLines(a);
    const sources = [...lines.map((l) => ({ where: 'robots.txt', value: l })), ...(header ? [{ where: 'the Content-Usage header', value: header }] : [])];
    if (sources.length === 0) {
      const problem = unreachable(a.robots, 'robots.txt');
      if (problem && !header) return problem;
      return outcome('failed', 'No Content-Usage rule in robots.txt and no Content-Usage header on the home page', docEvidence(a.robots));
    }
    const parsed = sources.map((s) => ({ ...s, ...parsePreferences(s.value) }));
    const good = parsed.find((p) => p.known.length > 0);
    const evidence = good?.where === 'the Content-Usage header' ? { ...docEvidence(a.home), header: `content-usage: ${header}` } : docEvidence(a.robots, 'body');
    if (!good) return outcome('warning', `Content-Usage is present but uses no vocabulary term this draft defines: ${parsed[0].value}`, evidence);
    const extra = parsed.flatMap((p) => p.unknown);
    if (extra.length > 0) return outcome('warning', `Content-Usage in ${good.where}: ${good.known.join(', ')}; not understood: ${extra.slice(0, 3).join(', ')}`, evidence);
    return outcome('passed', `Content-Usage in ${good.where}: ${good.known.join(', ')}`, evidence);
  },
});
