// The score badge: a flat two-part SVG ("agent-ready | 91 A") in the grade's colour, readable by screen readers
// (role="img", aria-label and <title>), with white text on colours dark enough for 4.5:1 contrast. Widths come
// from a per-character estimate of 11 px Verdana/DejaVu Sans, as shields.io-style badges do without a font file.
import type { LeaderboardSchemas } from '@arl/contract';

type Grade = LeaderboardSchemas['Grade'];

export const BADGE_LABEL = 'agent-ready';

/** Grade colours (white text on each has at least 4.5:1 contrast); grey for a company without a score. */
export const GRADE_COLOURS: Record<Grade | 'none', string> = {
  'A+': '#116329',
  A: '#1a7f37',
  B: '#4d7c0f',
  C: '#9a6700',
  D: '#bc4c00',
  F: '#cf222e',
  none: '#57606a',
};

const LABEL_COLOUR = '#24292f';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
const textWidth = (text: string) => Math.ceil([...text].reduce((w, c) => w + (/[ilj.,:;|!']/.test(c) ? 3.5 : /[mwMW@]/.test(c) ? 10 : /[A-Z+]/.test(c) ? 8 : 7), 0));

export function renderBadge(result: { score: number; grade: Grade } | null, domain: string): string {
  const value = result ? `${result.score} ${result.grade}` : 'not scanned';
  const colour = GRADE_COLOURS[result?.grade ?? 'none'];
  const title = result
    ? `${domain} agent readiness: score ${result.score} of 100, grade ${result.grade}`
    : `${domain} agent readiness: not scanned yet`;
  const left = textWidth(BADGE_LABEL) + 12;
  const right = textWidth(value) + 12;
  const width = left + right;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escapeXml(`${BADGE_LABEL}: ${value}`)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${left}" height="20" rx="3" fill="${LABEL_COLOUR}"/>`,
    `<rect x="${left}" width="${right}" height="20" rx="3" fill="${colour}"/>`,
    `<rect x="${left}" width="4" height="20" fill="${colour}"/>`,
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">`,
    `<text x="${left / 2}" y="14">${BADGE_LABEL}</text>`,
    `<text x="${left + right / 2}" y="14" font-weight="bold">${escapeXml(value)}</text>`,
    '</g></svg>',
  ].join('');
}
