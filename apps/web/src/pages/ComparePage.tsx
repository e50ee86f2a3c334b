// Companies side by side: score, grade, rank, each layer and every check, one column per company. The leader of each
// row is marked with a word ("ahead"), not only a colour; all of it is plain HTML (a GET form adds a company), so it
// reads without JavaScript, and the table scrolls inside its own box on a narrow screen.
import { LAYER_NAMES, STATUS_LABELS, gradeClass } from '../shared/format';
import type { PageData, Schemas } from '../shared/page-data';
import { companyHref, compareHref } from '../shared/urls';

type Props = Extract<PageData, { page: 'compare' }>;

export const MAX_COMPARED = 4;

export function ComparePage({ domains, community, comparison }: Props) {
  const companies = comparison?.companies ?? [];
  return (
    <article className="compare-page">
      <p className="eyebrow"><a href="/">Leaderboard</a> / Compare</p>
      <h1>{companies.length > 0 ? `Compare ${companies.map((c) => c.name).join(', ')}` : 'Compare companies'}</h1>
      <CompareForm domains={domains} community={community} />
      {comparison ? <CompareTable comparison={comparison} community={community} /> : (
        <p className="notice">Give two to four domains to see their scores, layers and every check side by side.</p>
      )}
    </article>
  );
}

function CompareForm({ domains, community }: { domains: string[]; community: boolean }) {
  if (domains.length >= MAX_COMPARED) {
    return <p>Comparing {MAX_COMPARED} companies, the most at once. Remove one to add another.</p>;
  }
  return (
    <form className="row compare-form" method="get" action="/compare">
      {domains.length > 0 && <input type="hidden" name="domains" value={domains.join(',')} />}
      {community && <input type="hidden" name="community" value="include" />}
      <label htmlFor="compare-add">{domains.length > 0 ? 'Add a company (domain)' : 'Domains to compare, separated by commas'}</label>
      <input id="compare-add" name={domains.length > 0 ? 'add' : 'domains'} type="text" required maxLength={domains.length > 0 ? 253 : 1019}
        placeholder={domains.length > 0 ? 'example.com' : 'stripe.com,adyen.com'} autoComplete="off" spellCheck={false} />
      <button type="submit" className="button">{domains.length > 0 ? 'Add' : 'Compare'}</button>
    </form>
  );
}

function Ahead({ on }: { on: boolean }) {
  return on ? <span className="ahead"> <span aria-hidden="true">▲</span> ahead</span> : null;
}

function CompareTable({ comparison, community }: { comparison: Schemas['Comparison']; community: boolean }) {
  const { companies } = comparison;
  const lead = (leaders: string[], i: number) => leaders.includes(companies[i].domain);
  const without = (i: number) => compareHref(companies.filter((_, j) => j !== i).map((c) => c.domain), community);
  return (
    <div className="table-scroll compare-scroll" tabIndex={0} role="region" aria-label="Comparison table">
      <table className="compare">
        <caption className="visually-hidden">Score, rank, layers and checks of {companies.map((c) => c.name).join(', ')}; “ahead” marks the leader of each row.</caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            {companies.map((c, i) => (
              <th scope="col" key={c.domain}>
                <a href={companyHref(c.domain, community)}>{c.name}</a>
                <span className="compare-domain">{c.domain}</span>
                {companies.length > 2 && <a className="compare-remove" href={without(i)} aria-label={`Remove ${c.name} from the comparison`}>remove</a>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Score</th>
            {companies.map((c, i) => (
              <td key={c.domain}>
                {c.score === null ? 'not scored' : <><strong>{c.score}</strong>/100 <span className={gradeClass(c.grade)}>{c.grade}</span></>}
                <Ahead on={lead(comparison.score.leaders, i)} />
              </td>
            ))}
          </tr>
          <tr>
            <th scope="row">Rank</th>
            {companies.map((c, i) => (
              <td key={c.domain}>{c.rank === null ? 'not ranked' : `#${c.rank} of ${c.rankedCompanies}`}<Ahead on={lead(comparison.rank.leaders, i)} /></td>
            ))}
          </tr>
          {comparison.layers.map((layer) => (
            <tr key={layer.id}>
              <th scope="row">{LAYER_NAMES[layer.id]} <span className="muted">({layer.weight}%)</span></th>
              {layer.values.map((v, i) => (
                <td key={companies[i].domain}>{v === null ? '—' : `${v}/100`}<Ahead on={lead(layer.leaders, i)} /></td>
              ))}
            </tr>
          ))}
          {comparison.checks.map((check) => (
            <tr key={check.id} className="compare-check">
              <th scope="row">{check.name} <span className="muted">({LAYER_NAMES[check.layer]}, {check.points} pts)</span></th>
              {check.statuses.map((status, i) => (
                <td key={companies[i].domain} className={status ? `status-${status}` : undefined}>
                  {status === null ? 'not run' : <><span aria-hidden="true">{STATUS_LABELS[status].icon}</span> {STATUS_LABELS[status].text}</>}
                  {check.values[i] !== null && <span className="muted"> · {formatPoints(check.values[i]!)} pts</span>}
                  <Ahead on={lead(check.leaders, i)} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const formatPoints = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
