// The scoring formula and the check catalog, both read from the API (which reads the scanner's own numbers).
import { LAYER_NAMES } from '../shared/format';
import type { PageData } from '../shared/page-data';
import { PUBLIC_FIGURES } from '../shared/public-figures';

type Props = Extract<PageData, { page: 'methodology' }>;

export function MethodologyPage({ methodology: m }: Props) {
  return (
    <article className="methodology">
      <h1>Methodology</h1>
      <p className="lead">
        How a score is computed, from the scanner&apos;s own catalog (version <code>{m.catalogVersion}</code>). A scan
        runs {m.checks.length} checks in four layers; each check passes, warns or fails with evidence, and the layers
        combine into a 0–100 score and a grade.
      </p>
      <h2>The formula</h2>
      <ol className="formula">
        <li>
          Each check is worth points by tier: required {m.tierPoints.required}, recommended {m.tierPoints.recommended},
          emerging {m.tierPoints.emerging}. A passed check earns {pct(m.statusCredit.passed)} of its points, a warning{' '}
          {pct(m.statusCredit.warning)}, a failure {pct(m.statusCredit.failed)}; checks that do not apply or could not be
          checked count on neither side.
        </li>
        <li>A layer&apos;s score is 100 × earned ÷ possible over its scorable checks (an emerging check counts only with what it earned).</li>
        <li>
          The base is the weighted average of the layers that have a score:{' '}
          {m.layers.map((l, i) => <span key={l.id}>{i > 0 ? ', ' : ''}{LAYER_NAMES[l.id]} {l.weight}%</span>)}.
        </li>
        <li>The base counts at most {m.caps.baseCeiling}; a failed required check caps the checks&apos; part at {m.caps.requiredFailure}.</li>
        <li>Bonus checks add {m.bonus.pointsPerCheck} points each when the base is at least {m.bonus.minimumBase}.</li>
        <li>
          Each working capability proven by a passing check adds {m.capabilities.pointsPerCapability} points (never past 100):{' '}
          {m.capabilities.items.map((c) => c.name).join('; ')}.
        </li>
      </ol>
      <h2>Grades</h2>
      <table className="compact">
        <thead><tr><th scope="col">Grade</th><th scope="col">Score from</th></tr></thead>
        <tbody>{m.gradeBands.map((g) => <tr key={g.grade}><td>{g.grade}</td><td>{g.min}</td></tr>)}</tbody>
      </table>
      <h2>The checks</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Check catalog (scrolls sideways on small screens)">
        <table className="catalog">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Layer</th>
              <th scope="col">Tier</th>
              <th scope="col">Points</th>
              <th scope="col">Applies to</th>
              <th scope="col">What it looks for</th>
            </tr>
          </thead>
          <tbody>
            {m.checks.map((c) => (
              <tr key={c.id} id={`check-${c.id}`}>
                <td><strong>{c.name}</strong><br /><code>{c.id}</code></td>
                <td>{LAYER_NAMES[c.layer]}</td>
                <td>{c.tier}{c.bonus ? ' (bonus)' : ''}{c.label ? ` · ${c.label}` : ''}</td>
                <td>{c.points}</td>
                <td>{c.appliesTo.join(', ').replace(/_/g, ' ')}</td>
                <td>{c.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2 id="public-figures">Public figures and our definitions</h2>
      <p>
        Others publish shares for measures close to some of our checks. They count other populations (popularity
        lists, crawls of millions of home pages) with other definitions, so the numbers are not directly comparable;
        here is how each differs. Our own figures are on <a href="/stats">the state of agent readiness</a>.
      </p>
      <dl className="public-figures">
        {PUBLIC_FIGURES.filter((f) => m.checks.some((c) => c.id === f.checkId)).map((f) => (
          <div key={f.checkId} id={`public-${f.checkId}`}>
            <dt><a href={`#check-${f.checkId}`}>{m.checks.find((c) => c.id === f.checkId)!.name}</a>: {f.source}</dt>
            <dd><p>{f.figure}</p><p>How ours differs: {f.differs}</p></dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
