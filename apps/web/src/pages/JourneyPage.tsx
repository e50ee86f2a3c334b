// Send an agent on one of the company's tasks and watch it: each page it opens appears as it goes (Server-Sent
// Events), then the outcome and the evidence it found. /journeys/{id} renders the same view on the server.
import { useEffect, useState, type FormEvent } from 'react';
import { JOURNEY_TASKS, journeyEventsUrl } from '@arl/client';
import { useInteractiveApi } from '../shared/api-context';
import { followLive } from '../shared/live';
import { TASK_LABELS, formatClock } from '../shared/format';
import type { PageData, Schemas } from '../shared/page-data';
import { companyHref, journeyPageHref } from '../shared/urls';

type Props = Extract<PageData, { page: 'journey' }>;
type Journey = Schemas['Journey'];

const OUTCOME_WORDS: Record<NonNullable<Journey['outcome']>, string> = {
  succeeded: '✓ Succeeded',
  failed: '✗ Failed',
  blocked: '✗ Blocked by the site',
  sign_in_required: '! Sign-in required',
  interrupted: '! Interrupted',
};

export function JourneyPage(props: Props) {
  const [journey, setJourney] = useState<Journey | null>(props.journey);
  const [watching, setWatching] = useState(false);
  return (
    <article className="journey-page">
      <p className="eyebrow"><a href={companyHref(props.domain, props.community)}>{props.companyName}</a> / Agent journey</p>
      <h1>An agent on {props.companyName}</h1>
      <p className="lead">
        An agent starts at the company&apos;s website and follows links to get a task done, within budgets of pages,
        time and bytes. You see every page it opens, then whether it succeeded and the evidence it found.
      </p>
      {!journey && <JourneyForm {...props} onStarted={(j, watched) => { setWatching(watched); setJourney(j); }} />}
      {journey && <JourneyProgress initial={journey} watching={watching} />}
    </article>
  );
}

function JourneyForm({ domain, community, onStarted }: Props & { onStarted: (j: Journey, watched: boolean) => void }) {
  const api = useInteractiveApi();
  const [task, setTask] = useState<Journey['task']>('understand_product');
  const [failure, setFailure] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!api) return;
    const { data, error, response } = await api.leaderboard.POST('/v1/leaderboard/companies/{domain}/journeys', {
      params: { path: { domain }, query: community ? { community: 'include' } : {} },
      body: { task },
    });
    if (!data) {
      const wait = response.headers.get('retry-after');
      setFailure(`The journey could not start (${response.status}): ${error?.message ?? ''}${wait ? ` Try again in ${wait} seconds.` : ''}`);
      return;
    }
    window.history.pushState(null, '', journeyPageHref(data.journey.id));
    onStarted({ id: data.journey.id, state: data.journey.state, task, domain, steps: [], evidence: [], createdAt: new Date().toISOString() }, !data.started);
  }
  return (
    <form className="scan-form" onSubmit={(e) => void submit(e)}>
      <fieldset>
        <legend>Pick a task</legend>
        {JOURNEY_TASKS.map((t) => (
          <div key={t} className="field-check">
            <input type="radio" id={`task-${t}`} name="task" value={t} checked={task === t} onChange={() => setTask(t)} />
            <label htmlFor={`task-${t}`}>{TASK_LABELS[t]}</label>
          </div>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={!api}>Start the journey</button>
      <noscript><p className="notice">Starting a journey needs JavaScript (or the API: POST /v1/leaderboard/companies/{domain}/journeys).</p></noscript>
      {failure && <p className="notice notice-error" role="alert">{failure}</p>}
    </form>
  );
}

function JourneyProgress({ initial, watching }: { initial: Journey; watching: boolean }) {
  const api = useInteractiveApi();
  const [journey, setJourney] = useState(initial);
  useEffect(() => {
    if (!api || initial.state === 'ended') return;
    return followLive({
      streamUrl: journeyEventsUrl(api.baseUrl, initial.id),
      finalEvent: 'journey',
      on: {
        state: (data) => setJourney((prev) => ({ ...prev, state: (data as { state: Journey['state'] }).state })),
        step: (data) => {
          const step = data as Schemas['JourneyStep'];
          setJourney((prev) => (prev.steps.some((s) => s.at === step.at && s.url === step.url) ? prev : { ...prev, steps: [...prev.steps, step] }));
        },
        journey: (data) => setJourney(data as Journey),
      },
      poll: async () => {
        const { data } = await api.leaderboard.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId: initial.id } } });
        if (!data) return false;
        setJourney(data);
        return data.state === 'ended';
      },
    });
  }, [api, initial.id, initial.state]);

  // A stream may say `ended` a moment before it sends the journey with its outcome: only then is it over here.
  const ended = journey.state === 'ended' && journey.outcome !== undefined;
  return (
    <section aria-labelledby="journey-title">
      <h2 id="journey-title">Task: {TASK_LABELS[journey.task]}</h2>
      {watching && <p className="notice" role="status">A journey was already running for this company: you are watching it.</p>}
      <p aria-live="polite" className="lead">
        {ended ? <strong>{OUTCOME_WORDS[journey.outcome ?? 'interrupted']}.</strong> : journey.state === 'waiting' ? 'Waiting for an agent…' : 'The agent is browsing…'}
        {ended && journey.cause ? ` ${journey.cause}` : ''}
        {journey.driver ? ` (agent: ${journey.driver})` : ''}
      </p>
      <h3>Steps</h3>
      {journey.steps.length === 0 ? <p>No step yet.</p> : (
        <ol className="steps" aria-live="polite">
          {journey.steps.map((s, i) => (
            <li key={`${s.at}-${i}`}>
              <span className="step-name">{s.action.replace(/_/g, ' ')}</span> <span className="break">{s.url}</span>
              {s.seen && <span className="hint"> — {s.seen}</span>} <time dateTime={s.at}>{formatClock(s.at)}</time>
            </li>
          ))}
        </ol>
      )}
      {ended && (
        <>
          <h3>Evidence</h3>
          {journey.evidence.length === 0 ? <p>The agent found no evidence.</p> : (
            <ul>
              {journey.evidence.map((ev, i) => (
                <li key={i}><strong>{ev.kind.replace(/_/g, ' ')}</strong>: {ev.detail}{ev.url ? <> (<span className="break">{ev.url}</span>)</> : null}</li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
