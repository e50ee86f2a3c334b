// "The state of agent readiness": the population's statistics (getPopulationStats) as a document that reads without
// JavaScript. Every figure names its count and denominator, links its check's methodology entry, and sits beside
// its weekly trend (an inline SVG with the same points in a table); the dataset's downloads close the page.
import { LAYER_NAMES, STATUS_LABELS } from '../shared/format';
import type { PageData, Schemas } from '../shared/page-data';
import { HEADLINE_CHECKS, publicFigureOf } from '../shared/public-figures';
import { statsHref } from '../shared/urls';

type Props = Extract<PageData, { page: 'stats' }>;
type Stats = Schemas['PopulationStats'];

export const percent = (share: number): string => `${(share * 100).toFixed(share > 0 && share < 0.1 ? 1 : 0)} %`;
const count = (n: number) => n.toLocaleString('en-US');

export function StatsPage({ stats, query }: Props) {
  const byId = new Map(stats.checks.map((c) => [c.id, c]));
  const headline = HEADLINE_CHECKS.filter((h) => byId.has(h.id));
  const scope = stats.category ? `${stats.category.name} companies` : stats.population === 'all' ? 'curated and community companies' : 'curated companies';
  const csv = stats.dataset.formats.find((f) => f.format === 'csv')!;
  const jsonl = stats.dataset.formats.find((f) => f.format === 'jsonl')!;
  return (
    <article className="stats">
      <h1>The state of agent readiness</h1>
      <p className="lead">
        What the latest scan of each of the {count(stats.rankedCompanies)} ranked {scope} found, check by check
        {stats.countedCompanies !== stats.rankedCompanies ? ` (${count(stats.countedCompanies)} of them counted so far: the others' checks are still loading)` : ''}.
        Methodology <a href="/methodology"><code>{stats.methodologyVersion}</code></a>; every company&apos;s row is in the{' '}
        <a href="#dataset">open dataset</a>.
      </p>

      <form className="filters" method="get" action="/stats" aria-label="Choose the population">
        <div className="field">
          <label htmlFor="stats-category">Category</label>
          <select id="stats-category" name="category" defaultValue={query.category ?? ''}>
            <option value="">Every category</option>
            {(stats.category && !stats.categories.some((c) => c.category.id === stats.category!.id) ? [stats.category] : [])
              .concat(stats.categories.map((c) => c.category))
              .map((c) => <option key={c.id} value={c.slug}>{c.name}</option>)}
          </select>
        </div>
        <div className="field-check">
          <input type="checkbox" id="stats-community" name="community" value="include" defaultChecked={query.community === 'include'} />
          <label htmlFor="stats-community">Include community scans</label>
        </div>
        <button type="submit" className="button">Show</button>
      </form>

      <h2 id="headline">Headline figures</h2>
      {stats.countedCompanies === 0 ? (
        <p className="notice">No company is counted here yet: the figures appear once companies of this population have been scanned.</p>
      ) : (
        <ul className="stat-cards">
          {headline.map((h) => {
            const check = byId.get(h.id)!;
            const note = publicFigureOf(h.id);
            return (
              <li key={h.id} className="stat-card">
                <h3><a href={`/methodology#check-${h.id}`}>{h.label}</a></h3>
                <p className="stat-figure"><strong>{percent(check.shares.passed)}</strong> passed</p>
                <p className="hint">{count(check.counts.passed)} of {count(check.companies)} companies with a result; {count(check.counts.couldntCheck)} could not be checked.</p>
                <Trend weekly={stats.weekly} checkId={h.id} label={h.label} />
                {note && <p className="hint public-figure">{note.source}: {note.figure} <a href={`/methodology#public-${h.id}`}>How ours differs</a>.</p>}
              </li>
            );
          })}
        </ul>
      )}
      <p className="hint">Web Bot Auth (signed agent requests) is not a check of the catalog yet: our scanner signs its own requests with it.</p>

      <h2 id="grades">Grades</h2>
      <GradeBars grades={stats.grades} total={stats.countedCompanies} />

      <h2 id="layers">Layers</h2>
      <div className="table-scroll layers-table" tabIndex={0} role="region" aria-label="Score quartiles by layer (scrolls sideways on small screens)">
      <table className="compact">
        <caption className="visually-hidden">Quartiles of each layer&apos;s score</caption>
        <thead><tr><th scope="col">Layer</th><th scope="col">Scored</th><th scope="col">Lowest</th><th scope="col">Quartile 1</th><th scope="col">Median</th><th scope="col">Quartile 3</th><th scope="col">Highest</th></tr></thead>
        <tbody>
          {[{ id: 'score', label: 'Whole score', scored: stats.countedCompanies, q: stats.score }, ...stats.layers.map((l) => ({ id: l.id, label: LAYER_NAMES[l.id], scored: l.scored, q: l.quartiles }))].map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.label}</th>
              <td>{count(row.scored)}</td>
              <td>{row.q?.min ?? '—'}</td><td>{row.q?.q1 ?? '—'}</td><td>{row.q?.median ?? '—'}</td><td>{row.q?.q3 ?? '—'}</td><td>{row.q?.max ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>

      {stats.categories.length > 0 && (
        <>
          <h2 id="categories">By category</h2>
          <div className="table-scroll categories-table" tabIndex={0} role="region" aria-label="Categories compared (scrolls sideways on small screens)">
            <table>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Companies</th>
                  <th scope="col">Median score</th>
                  {headline.slice(0, 4).map((h) => <th key={h.id} scope="col"><a href={`/methodology#check-${h.id}`}>{h.label}</a></th>)}
                </tr>
              </thead>
              <tbody>
                {stats.categories.map((c) => {
                  const shares = new Map(c.checks.map((x) => [x.id, x]));
                  return (
                    <tr key={c.category.id}>
                      <th scope="row"><a href={statsHref({ category: c.category.slug, community: query.community })}>{c.category.name}</a></th>
                      <td>{count(c.rankedCompanies)}</td>
                      <td>{c.score?.median ?? '—'}</td>
                      {headline.slice(0, 4).map((h) => <td key={h.id}>{shares.has(h.id) ? percent(shares.get(h.id)!.share) : '—'}</td>)}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}

      <h2 id="checks">Every check</h2>
      <p className="hint">Shares of the companies with a result for the check; not applicable and could not check are counted, never dropped.</p>
      <div className="table-scroll checks-table" tabIndex={0} role="region" aria-label="Every check's statuses (scrolls sideways on small screens)">
        <table>
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Companies</th>
              {(['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'] as const).map((s) => <th key={s} scope="col">{STATUS_LABELS[s].text}</th>)}
            </tr>
          </thead>
          <tbody>
            {stats.checks.map((c) => (
              <tr key={c.id}>
                <th scope="row"><a href={`/methodology#check-${c.id}`}>{c.name}</a></th>
                <td>{count(c.companies)}</td>
                <td>{percent(c.shares.passed)}</td>
                <td>{percent(c.shares.warning)}</td>
                <td>{percent(c.shares.failed)}</td>
                <td>{percent(c.shares.notApplicable)}</td>
                <td>{percent(c.shares.couldntCheck)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="dataset">The open dataset</h2>
      <p>
        One row per ranked company ({count(stats.dataset.rows)} here): domain, name, category, source, score, grade, when it was scanned,
        the catalog its scan ran and the methodology version, then one column per check with its status. Free to reuse under{' '}
        <a href={stats.dataset.licenseUrl} rel="license">CC BY 4.0</a>: credit &quot;Agent-Readiness Leaderboard&quot; and the methodology version.
      </p>
      <ul className="row dataset-links">
        <li><a className="button" href={csv.url} download>Download CSV</a></li>
        <li><a className="button button-quiet" href={jsonl.url} download>Download JSON Lines</a></li>
        <li><a href="/v1/leaderboard/stats">These figures as JSON</a></li>
      </ul>
    </article>
  );
}

const W = 240;
const H = 64;
const PAD = 6;

/** A check's weekly pass share as a small line chart, its points also in a table. */
function Trend({ weekly, checkId, label }: { weekly: Stats['weekly']; checkId: string; label: string }) {
  const points = weekly.map((w) => ({ week: w.weekEnding, partial: w.partial, share: w.checks.find((c) => c.id === checkId)?.share ?? 0, companies: w.checks.find((c) => c.id === checkId)?.companies ?? 0 }));
  const x = (i: number) => PAD + (points.length === 1 ? (W - 2 * PAD) / 2 : (i / (points.length - 1)) * (W - 2 * PAD));
  const y = (share: number) => PAD + (1 - share) * (H - 2 * PAD);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.share).toFixed(1)}`).join(' ');
  const first = points[0];
  const last = points[points.length - 1];
  const words = points.length === 1
    ? `${label}: ${percent(last.share)} passed this week; no earlier week yet.`
    : `${label}: passed share by week, from ${percent(first.share)} in the week ending ${first.week} to ${percent(last.share)} this week (${points.length} weeks).`;
  return (
    <figure className="trend">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={words} preserveAspectRatio="none">
        <line className="chart-grid" x1={PAD} x2={W - PAD} y1={y(0)} y2={y(0)} />
        <line className="chart-grid" x1={PAD} x2={W - PAD} y1={y(1)} y2={y(1)} />
        <path className="chart-line" d={path} fill="none" vectorEffect="non-scaling-stroke" />
        {points.map((p, i) => <circle key={p.week} className="chart-point" cx={x(i)} cy={y(p.share)} r={2.5} />)}
      </svg>
      <details>
        <summary>Trend as a table</summary>
        <table className="compact">
          <thead><tr><th scope="col">Week ending</th><th scope="col">Passed</th><th scope="col">Of</th></tr></thead>
          <tbody>{points.map((p) => <tr key={p.week}><td>{p.week}{p.partial ? ' (so far)' : ''}</td><td>{percent(p.share)}</td><td>{count(p.companies)}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}

/** The grade distribution as bars (each with its words), best grade first. */
function GradeBars({ grades, total }: { grades: Stats['grades']; total: number }) {
  const max = Math.max(1, ...grades.map((g) => g.companies));
  return (
    <ul className="grade-bars" aria-label={`Companies by grade, of ${count(total)}`}>
      {grades.map((g) => {
        const key = g.grade === 'A+' ? 'aplus' : g.grade.toLowerCase();
        return (
          <li key={g.grade}>
            <span className={`grade grade-${key}`}>{g.grade}</span>
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
              <rect className={`bar bar-${key}`} x="0" y="0" height="10" width={(g.companies / max) * 100} />
            </svg>
            <span className="grade-share">{percent(g.share)}</span>
            <span className="grade-count">{count(g.companies)} {g.companies === 1 ? 'company' : 'companies'}</span>
          </li>
        );
      })}
    </ul>
  );
}
