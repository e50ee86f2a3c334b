// The company page's "watch" parts (issue 20): how each check moved ("was failed until 2026-11-20"), which checks
// moved the score in the last 7 days, a "compare with..." form, and the badge snippet to paste into a README.
import { LAYER_NAMES, STATUS_LABELS } from '../shared/format';
import type { Schemas } from '../shared/page-data';
import { CopyButton } from './CopyButton';

type Changes = Schemas['CheckChanges'];

/** "Was failed until 2026-11-20": the latest change of the check within the window, or null when it did not move. */
export function movementOf(changes: Changes | null, checkId: string): string | null {
  const latest = changes?.items.find((c) => c.checkId === checkId);
  if (!latest) return null;
  return `Was ${STATUS_LABELS[latest.from].text.toLowerCase()} until ${latest.at.slice(0, 10)}`;
}

const signed = (n: number) => (n > 0 ? `+${formatPoints(n)}` : n < 0 ? `−${formatPoints(-n)}` : '±0');
const formatPoints = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export function Moved({ changes }: { changes: Changes }) {
  return (
    <section aria-labelledby="moved-title">
      <h2 id="moved-title">What moved in the last {changes.days} days</h2>
      {changes.items.length === 0 ? (
        <p>No check changed status in the last {changes.days} days.</p>
      ) : (
        <ul className="moved-list">
          {changes.items.map((c) => (
            <li key={`${c.scanId}-${c.checkId}`}>
              <a href={`#check-${c.checkId}`}>{c.name}</a> ({LAYER_NAMES[c.layer]}): {STATUS_LABELS[c.from].text.toLowerCase()} → <strong>{STATUS_LABELS[c.to].text.toLowerCase()}</strong> on {c.at.slice(0, 10)}, {signed(c.earnedChange)} pts
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function CompareWith({ domain, community }: { domain: string; community: boolean }) {
  return (
    <form className="row compare-form" method="get" action="/compare" aria-label="Compare with another company">
      <input type="hidden" name="domains" value={domain} />
      {community && <input type="hidden" name="community" value="include" />}
      <label htmlFor="compare-with">Compare with…</label>
      <input id="compare-with" name="add" type="text" required maxLength={253} placeholder="another domain, e.g. example.com" autoComplete="off" spellCheck={false} />
      <button type="submit" className="button button-quiet">Compare</button>
    </form>
  );
}

export function BadgeSnippet({ name, image, page }: { name: string; image: string; page: string }) {
  const markdown = `[![Agent readiness of ${name}](${image})](${page})`;
  const html = `<a href="${page}"><img src="${image}" alt="Agent readiness of ${name.replace(/"/g, '&quot;')}"></a>`;
  return (
    <section aria-labelledby="badge-title" className="badge-snippet">
      <h2 id="badge-title">Badge</h2>
      <p><img src={image} alt={`Agent readiness badge of ${name}`} height={20} /></p>
      <p>Paste into a README (Markdown):</p>
      <pre><code>{markdown}</code></pre>
      <CopyButton text={markdown} label="Copy Markdown badge snippet" idle="Copy Markdown" />
      <p>Or into a web page (HTML):</p>
      <pre><code>{html}</code></pre>
      <CopyButton text={html} label="Copy HTML badge snippet" idle="Copy HTML" />
    </section>
  );
}
