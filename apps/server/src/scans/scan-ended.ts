// A scan's end as one event, `ScanEnded`: what the ending's transaction wrote (the outcome, the company's new facts,
// the layers and checks), told to whoever follows it. The followers register themselves (the leaderboard applies the
// facts and keeps the detail without reading them back; webhooks queue their deliveries), so the scan job knows none
// of them and nothing is wired as a callback through runtime.ts.
//
// Two moments of the same event: `inTransaction` writers run last in the ending's transaction (an outbox: their rows
// commit with the end or not at all), `subscribe`d followers are told once after the commit.
import type { Tx } from '../jobs/queue';
import type { CompanyFacts } from '../leaderboard/live-index';
import type { ScanDetail } from './detail';
import type { ScanEnding } from './results';

export interface ScanEnded extends ScanEnding {
  /** A scored scan's company as the transaction left it (what the leaderboard applies); absent when unscored. */
  company?: CompanyFacts;
  /** The layers and checks the transaction wrote, as the database answers them (scans/detail.ts). */
  detail: ScanDetail;
}

/** Work in the ending's transaction; returns the job kinds to wake once it commits. */
export type ScanEndedWriter = (tx: Tx, ended: ScanEnded) => Promise<string[]>;
/** Told after the commit; its synchronous part runs before `emit` returns its promise. */
export type ScanEndedFollower = (ended: ScanEnded) => void | Promise<void>;

export class ScanEndedEvents {
  private readonly writers = new Set<ScanEndedWriter>();
  private readonly followers = new Set<ScanEndedFollower>();

  inTransaction(writer: ScanEndedWriter): () => void {
    this.writers.add(writer);
    return () => void this.writers.delete(writer);
  }

  subscribe(follower: ScanEndedFollower): () => void {
    this.followers.add(follower);
    return () => void this.followers.delete(follower);
  }

  /** Runs the writers in the ending's transaction (a failure rolls the ending back); the job kinds to wake. */
  async write(tx: Tx, ended: ScanEnded): Promise<string[]> {
    const wake: string[] = [];
    for (const writer of this.writers) wake.push(...(await writer(tx, ended)));
    return wake;
  }

  /** Tells every follower once the ending has committed; a follower's failure is reported, never thrown. */
  async emit(ended: ScanEnded, onError: (err: unknown) => void): Promise<void> {
    await Promise.all(
      [...this.followers].map((follower) => {
        try {
          return Promise.resolve(follower(ended)).catch(onError);
        } catch (err) {
          onError(err);
          return undefined;
        }
      }),
    );
  }
}
