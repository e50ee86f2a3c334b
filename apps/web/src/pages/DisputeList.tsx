// A company's disputed verdicts: what was disputed and, once the rescan has ended, whether the verdict held.
import { formatTime } from '../shared/format';
import type { Schemas } from '../shared/page-data';
import { scanPageHref } from '../shared/urls';

const STATE_LABELS: Record<Schemas['DisputeState'], string> = {
  rescanning: 'Rescanning',
  held: 'Verdict held',
  changed: 'Verdict changed',
  unresolved: 'Unresolved',
};

export function DisputeList({ disputes }: { disputes: Schemas['Dispute'][] }) {
  return (
    <section id="disputes" aria-labelledby="disputes-title">
      <h2 id="disputes-title">Disputes</h2>
      <ul className="disputes">
        {disputes.map((d) => (
          <li key={d.id} id={`dispute-${d.id}`} className={`notice dispute dispute-${d.state}`}>
            <p>
              <strong>{STATE_LABELS[d.state]}</strong>: “{d.checkName}” (<code>{d.checkId}</code>) was disputed as{' '}
              <em>{d.disputedStatus}</em> in <a href={scanPageHref(d.scanId)}>scan {d.scanId.slice(0, 8)}</a>, {formatTime(d.receivedAt)}.
            </p>
            <p>{d.outcome}{d.rescanId && <> <a href={scanPageHref(d.rescanId)}>The rescan</a>.</>}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
