// Scan a URL: the form, then the scan's steps as they happen (Server-Sent Events), then the score and a link to
// the company. /scans/{id} renders the same progress on the server, so a reload or a shared link shows it too.
import { useEffect, useState, type FormEvent } from 'react';
import { scanEventsUrl } from '@arl/client';
import { useInteractiveApi } from '../shared/api-context';
import { followLive } from '../shared/live';
import { ENDING_LABELS, formatClock, gradeClass, humanStep } from '../shared/format';
import type { PageData, Schemas } from '../shared/page-data';
import { companyHref, scanPageHref } from '../shared/urls';
import { VerdictReport } from './VerdictReport';
import { describeScanError } from './scan-errors';

type Props = Extract<PageData, { page: 'scan' }>;

export function ScanPage(props: Props) {
  const [scan, setScan] = useState<Schemas['Scan'] | null>(props.scan);
  const [joined, setJoined] = useState(props.joined);
  if (scan) return <ScanProgress initial={scan} joined={joined} report={props.report ?? null} />;
  return <ScanForm onStarted={(s, j) => { setJoined(j); setScan(s); }} />;
}

function ScanForm({ onStarted }: { onStarted: (scan: Schemas['Scan'], joined: boolean) => void }) {
  const api = useInteractiveApi();
  const [url, setUrl] = useState('');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!api) return;
    setBusy(true);
    setFailure(null);
    const { data, error, response } = await api.leaderboard.POST('/v1/leaderboard/scans', { body: { url: url.trim(), ...(email.trim() ? { email: email.trim() } : {}) } });
    setBusy(false);
    if (!data) {
      setFailure(describeScanError(response, error));
      return;
    }
    window.history.pushState(null, '', `${scanPageHref(data.scan.id)}${data.started ? '' : '?joined=1'}`);
    onStarted({ id: data.scan.id, state: data.scan.state, domain: data.domain, events: [] }, !data.started);
  }

  return (
    <>
      <h1>Scan a site</h1>
      <p className="lead">
        Enter the address of a website, an MCP server or an MCP App. The scan runs every check of the{' '}
        <a href="/methodology">methodology</a> and usually takes a few seconds; you can watch each step here.
      </p>
      <form className="scan-form" onSubmit={(e) => void submit(e)}
        {...{ toolname: 'scan_site', tooldescription: 'Scan a URL for agent-readiness and get its score' }}>
        <div className="field">
          <label htmlFor="scan-url">URL to scan</label>
          <input id="scan-url" name="url" type="url" required maxLength={2048} placeholder="https://example.com" value={url}
            onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="scan-email">E-mail for the result (optional)</label>
          <input id="scan-email" name="email" type="email" maxLength={254} placeholder="you@example.com" value={email}
            onChange={(e) => setEmail(e.target.value)} aria-describedby="scan-email-hint" />
          <p id="scan-email-hint" className="hint">We send one mail when the scan ends, and keep the address for nothing else.</p>
        </div>
        <button type="submit" className="button" disabled={busy || !api}>{busy ? 'Starting…' : 'Start the scan'}</button>
        <noscript>
          <p className="notice">This form needs JavaScript. Without it, start a scan with the API:{' '}
            <code>curl -X POST /v1/leaderboard/scans -H &apos;content-type: application/json&apos; -d &apos;{'{"url":"https://example.com"}'}&apos;</code>
          </p>
        </noscript>
      </form>
      {failure && <p className="notice notice-error" role="alert">{failure}</p>}
    </>
  );
}

export function ScanProgress({ initial, joined, report = null }: { initial: Schemas['Scan']; joined: boolean; report?: Schemas['ScanReport'] | null }) {
  const api = useInteractiveApi();
  const [scan, setScan] = useState(initial);
  const [events, setEvents] = useState<Schemas['ScanEvent'][]>(initial.events);
  const [companyLink, setCompanyLink] = useState<string>(companyHref(initial.domain, true));
  const ended = scan.state === 'ended';

  useEffect(() => {
    if (!api || initial.state === 'ended') return;
    return followLive({
      streamUrl: scanEventsUrl(api.baseUrl, initial.id),
      finalEvent: 'scan',
      on: {
        step: (data) => {
          const step = data as Schemas['ScanEvent'];
          setEvents((prev) => (prev.some((p) => p.step === step.step && p.at === step.at) ? prev : [...prev, step]));
          if (step.step === 'waiting' || step.step === 'running' || step.step === 'scoring') setScan((prev) => ({ ...prev, state: step.step as Schemas['ScanState'] }));
        },
        scan: (data) => {
          const final = data as Schemas['Scan'];
          setScan(final);
          setEvents(final.events);
        },
      },
      poll: async () => {
        const { data } = await api.leaderboard.GET('/v1/leaderboard/scans/{scanId}', { params: { path: { scanId: initial.id } } });
        if (!data) return false;
        setScan(data);
        setEvents(data.events);
        return data.state === 'ended';
      },
    });
  }, [api, initial.id, initial.state]);

  // A curated company is read without the community flag; only community companies need it.
  useEffect(() => {
    if (!api || !ended || scan.ending !== 'finished') return;
    void api.leaderboard.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: scan.domain } } })
      .then(({ data }) => { if (data) setCompanyLink(companyHref(scan.domain, false)); });
  }, [api, ended, scan.ending, scan.domain]);

  return (
    <article className="scan-progress">
      <p className="eyebrow"><a href="/scan">Scan a site</a> / {scan.domain}</p>
      <h1>Scan of {scan.domain}</h1>
      {joined && <p className="notice" role="status">A scan of this site was already running: you joined it, and you see its progress here.</p>}
      <p className="lead" aria-live="polite">
        {ended ? `Ended: ${ENDING_LABELS[scan.ending!]}.` : `In progress: ${humanStep(scan.state)}…`}
        {ended && scan.cause ? ` ${scan.cause}` : ''}
      </p>
      {ended && scan.score !== undefined && (
        <section className="scorecard" aria-label="Result">
          <div className="score-big">
            <span className="score-number">{scan.score}</span><span className="score-of">/100</span>
            <span className={gradeClass(scan.grade)}>Grade {scan.grade}</span>
          </div>
          <p><a className="button" href={companyLink}>See every check for {scan.domain}</a></p>
          {report && report.scanId === scan.id && report.checks.length > 0 && (
            <VerdictReport domain={report.domain} scanId={report.scanId} check={null} choices={report.checks} />
          )}
        </section>
      )}
      <h2>Steps</h2>
      <ol className="steps" aria-live="polite">
        {events.map((e, i) => (
          <li key={`${e.step}-${i}`}><span className="step-name">{humanStep(e.step)}</span> <time dateTime={e.at}>{formatClock(e.at)}</time></li>
        ))}
      </ol>
      {!ended && <p className="hint">This page updates by itself while the scan runs.</p>}
      {ended && <p><a href={`/v1/leaderboard/scans/${scan.id}/report`}>The full report as JSON</a> · <a href="/scan">Scan another site</a></p>}
    </article>
  );
}
