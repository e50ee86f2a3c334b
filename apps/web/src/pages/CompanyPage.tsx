// One company: score, grade, ranks, the four layers with their weights, the score history, and every check of the
// latest scan grouped by layer, each with its evidence, fix and a "this verdict is wrong" form, and the company's
// disputed verdicts. All of it is in the HTML; JavaScript adds the copy and rescan buttons.
import { LAYERS } from '@arl/client';
import { LAYER_NAMES, STATUS_LABELS, formatTime, gradeClass, rankMovement, scoreMovement } from '../shared/format';
import type { PageData, Schemas } from '../shared/page-data';
import { journeyHref, scanPageHref } from '../shared/urls';
import { BadgeSnippet, CompareWith, Moved, movementOf } from './WatchParts';
import { CopyButton } from './CopyButton';
import { DisputeList } from './DisputeList';
import { HistoryChart } from './HistoryChart';
import { RescanButton } from './RescanButton';
import { VerdictReport } from './VerdictReport';

type Props = Extract<PageData, { page: 'company' }>;
type AnyCheck = Schemas['Check'] & Partial<Pick<Schemas['ReportCheck'], 'description' | 'evidence' | 'fix'>>;

export function CompanyPage({ company, report, history, changes, moved, badge, community, disputes }: Props) {
  const scored = company.score !== null;
  const checks: AnyCheck[] = report?.checks ?? company.checks ?? [];
  const layers = company.layers ?? report?.layers ?? [];
  const rank = rankMovement(company.rankChange7d);
  const score = scoreMovement(company.scoreChange7d);
  return (
    <article className="company-page">
      <p className="eyebrow"><a href="/">Leaderboard</a> / {company.category?.name ?? 'Uncategorised'}</p>
      <h1>{company.name}</h1>
      <p className="lead">
        <a href={company.website} rel="nofollow noopener">{company.domain}</a>
        {company.source === 'community' && <span className="badge">Community</span>}
        {company.newThisWeek && <span className="badge badge-new">New this week</span>}
      </p>

      {scored ? (
        <section className="scorecard" aria-label="Score">
          <div className="score-big">
            <span className="score-number">{company.score}</span><span className="score-of">/100</span>
            <span className={gradeClass(company.grade)}>Grade {company.grade}</span>
          </div>
          <dl className="facts facts-grid">
            <div><dt>Rank</dt><dd>{company.rank !== null ? `#${company.rank} of ${company.rankedCompanies}` : 'Not ranked'}</dd></div>
            <div><dt>In {company.category?.name ?? 'its category'}</dt><dd>{company.categoryRank !== null ? `#${company.categoryRank} of ${company.categoryRankedCompanies}` : '—'}</dd></div>
            <div><dt>7-day score</dt><dd><span aria-hidden="true">{score.sign}</span><span className="visually-hidden">{score.words}</span></dd></div>
            <div><dt>7-day rank</dt><dd><span aria-hidden="true">{rank.sign}</span><span className="visually-hidden">{rank.words}</span></dd></div>
            <div><dt>Scanned</dt><dd>{formatTime(company.scannedAt)}</dd></div>
          </dl>
          {company.summary && <p>{company.summary}</p>}
        </section>
      ) : (
        <section className="notice" aria-label="Score">
          <p>{company.name} has not been scored yet: no scan of it has finished. Start one below.</p>
        </section>
      )}

      <div className="row actions">
        <RescanButton url={company.website} domain={company.domain} />
        <a className="button button-quiet" href={journeyHref(company.domain, community)}>Send an agent on a task</a>
      </div>
      <CompareWith domain={company.domain} community={community} />

      {layers.length > 0 && (
        <section aria-labelledby="layers-title">
          <h2 id="layers-title">Layers</h2>
          <ul className="layers">
            {layers.map((layer) => (
              <li key={layer.id} className="layer">
                <span className="layer-name">{LAYER_NAMES[layer.id]}</span>
                <span className="layer-weight">weight {layer.weight}%</span>
                <meter min={0} max={100} value={layer.score ?? 0} aria-label={`${LAYER_NAMES[layer.id]} score`}>{layer.score ?? 0}</meter>
                <span className="layer-score">{layer.score === null ? 'no score' : `${layer.score}/100`}</span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {disputes.length > 0 && <DisputeList disputes={disputes} />}

      {history && (
        <section aria-labelledby="history-title">
          <h2 id="history-title">History</h2>
          <HistoryChart history={history} />
        </section>
      )}

      {moved && <Moved changes={moved} />}

      {checks.length > 0 && (
        <section aria-labelledby="checks-title">
          <h2 id="checks-title">Checks</h2>
          <p>
            {countBy(checks, 'passed')} passed, {plural(countBy(checks, 'warning'), 'warning')}, {countBy(checks, 'failed')} failed
            {report ? <> in <a href={scanPageHref(report.scanId)}>scan {report.scanId.slice(0, 8)}</a> ({formatTime(report.scannedAt)}, catalog {report.catalogVersion ?? 'unknown'})</> : null}.
            Open a check for its evidence and fix.
          </p>
          {LAYERS.map((layerId) => {
            const inLayer = checks.filter((c) => c.layer === layerId);
            if (inLayer.length === 0) return null;
            return (
              <section key={layerId} className="check-group" aria-labelledby={`layer-${layerId}`}>
                <h3 id={`layer-${layerId}`}>{LAYER_NAMES[layerId]}</h3>
                <ul className="checks">
                  {inLayer.map((check) => (
                    <li key={check.id} id={`check-${check.id}`}>
                      <CheckItem check={check} domain={company.domain} scanId={report?.scanId ?? null} movement={movementOf(changes, check.id)} />
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </section>
      )}

      <BadgeSnippet name={company.name} image={badge.image} page={badge.page} />
    </article>
  );
}

function CheckItem({ check, domain, scanId, movement }: { check: AnyCheck; domain: string; scanId: string | null; movement: string | null }) {
  const status = STATUS_LABELS[check.status];
  return (
    <details className={`check status-${check.status}`}>
      <summary>
        <span className="status-tag"><span aria-hidden="true">{status.icon}</span> {status.text}</span>
        <span className="check-name">{check.name}</span>
        <span className="check-points">{formatPoints(check.earned)}/{check.points} pts · {check.tier}{check.bonus ? ' · bonus' : ''}{check.label && check.label !== check.tier ? ` · ${check.label}` : ''}</span>
        {movement && <span className="check-moved">{movement}</span>}
      </summary>
      <div className="check-body">
        {check.description && <p>{check.description}</p>}
        {check.evidence && (
          <dl className="facts evidence">
            <dt>Found</dt>
            <dd>{check.evidence.detail}</dd>
            {check.evidence.url && (<><dt>URL</dt><dd className="break">{check.evidence.url}{check.evidence.status !== null ? ` (HTTP ${check.evidence.status})` : ''}</dd></>)}
            {check.evidence.header && (<><dt>Header</dt><dd><pre>{check.evidence.header}</pre></dd></>)}
            {check.evidence.excerpt && (<><dt>Excerpt</dt><dd><pre>{check.evidence.excerpt}</pre></dd></>)}
          </dl>
        )}
        {check.fix && (
          <div className="fix">
            <h4>How to fix it</h4>
            <p>{check.fix}</p>
            <CopyButton text={check.fix} label={`Copy the fix for ${check.name}`} />
          </div>
        )}
        <p className="check-id">Check id <code>{check.id}</code></p>
        {scanId && <VerdictReport domain={domain} scanId={scanId} check={check} />}
      </div>
    </details>
  );
}

function countBy(checks: AnyCheck[], status: Schemas['CheckStatus']): number {
  return checks.filter((c) => c.status === status).length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatPoints(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
