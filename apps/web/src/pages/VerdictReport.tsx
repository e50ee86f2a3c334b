// "This verdict is wrong": a plain form (it works without JavaScript) posted to this host's postDisputeForm, which
// files a feedback report of the kind dispute on the feedback host's `leaderboard` project and starts a rescan. The
// answer is a redirect to the company page, whose Disputes section then shows where the dispute stands.
import { useId } from 'react';
import { disputeFormAction } from '../shared/urls';

interface Props {
  domain: string;
  scanId: string;
  /** One check (a company page's check), or a choice among the scan's checks (the scan page). */
  check: { id: string; name: string; status: string } | null;
  choices?: ReadonlyArray<{ id: string; name: string; status: string }>;
}

export function VerdictReport({ domain, scanId, check, choices = [] }: Props) {
  const id = useId();
  return (
    <details className="verdict-report">
      <summary className="button button-small button-quiet">{check ? 'This verdict is wrong' : 'A verdict of this scan is wrong'}</summary>
      <form className="verdict-form" method="post" action={disputeFormAction(domain)}>
        <input type="hidden" name="scanId" value={scanId} />
        {check ? (
          <input type="hidden" name="checkId" value={check.id} />
        ) : (
          <>
            <label htmlFor={`${id}-check`}>Which check?</label>
            <select id={`${id}-check`} name="checkId" required>
              {choices.map((c) => <option key={c.id} value={c.id}>{c.name} ({c.status})</option>)}
            </select>
          </>
        )}
        <label htmlFor={`${id}-text`}>{check ? <>What is wrong with the verdict “{check.status}” on “{check.name}”?</> : 'What is wrong with its verdict?'}</label>
        <textarea id={`${id}-text`} name="observation" required minLength={10} maxLength={4000} rows={3}
          placeholder="For example: our llms.txt is served at /llms.txt with an H1 and links." />
        <p className="hint">Filed as a dispute on the leaderboard&apos;s feedback project with scan <code>{scanId}</code>; a rescan of {domain} starts, and the company page shows whether the verdict held.</p>
        <div className="row">
          <button type="submit" className="button button-small">Dispute the verdict</button>
        </div>
      </form>
    </details>
  );
}
