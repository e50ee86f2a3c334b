// What a fresh start looks like, told truthfully: how many seeded companies wait, are being scanned, ended without
// a score and why, and how to fill the list without internet access.
import type { Coverage } from '../shared/page-data';
import { ENDING_LABELS } from '../shared/format';
import { leaderboardHref } from '../shared/urls';

export function EmptyState({ coverage, community }: { coverage: Coverage | null; community: boolean }) {
  return (
    <section className="empty" aria-labelledby="empty-title">
      <h2 id="empty-title">Nothing is ranked yet</h2>
      {coverage && (
        <>
          <p>
            This leaderboard knows {coverage.curated} seeded companies. A company appears here once a scan has scored it:
          </p>
          <ul className="coverage">
            <li><strong>{coverage.scored}</strong> scored</li>
            <li><strong>{coverage.queued}</strong> waiting for their scan</li>
            <li><strong>{coverage.running}</strong> being scanned now</li>
            <li><strong>{coverage.unscored}</strong> scanned without a score</li>
            <li><strong>{coverage.neverScanned}</strong> not scanned yet</li>
          </ul>
          {coverage.causes.length > 0 && (
            <>
              <h3>Why scans ended without a score</h3>
              <ul>
                {coverage.causes.map((c) => (
                  <li key={`${c.ending}:${c.cause}`}>{ENDING_LABELS[c.ending]}: {c.cause} ({c.companies} {c.companies === 1 ? 'company' : 'companies'})</li>
                ))}
              </ul>
            </>
          )}
          {coverage.community > 0 && !community && (
            <p>
              {coverage.community} community {coverage.community === 1 ? 'company has' : 'companies have'} a score:{' '}
              <a href={leaderboardHref({ community: 'include' })}>show the leaderboard with community scans</a>.
            </p>
          )}
        </>
      )}
      <h3>No internet access?</h3>
      <p>
        Scans of the seeded companies need the internet; offline they end &ldquo;failed&rdquo; (the host name does not
        resolve), which is the truth. To see a filled leaderboard offline, run <code>npm run demo</code>: it scans the
        sandbox&apos;s fixture sites through the real pipeline and lists them as community companies (tick
        &ldquo;Include community scans&rdquo;).
      </p>
      <p><a className="button" href="/scan">Scan a site now</a></p>
    </section>
  );
}
