// Operation 6's views kept between a scan's changes: clients poll a scan every fraction of a second until it ends,
// and on the embedded database every read is a statement run on the server's own event loop, between the scans.
// Every write to a scan or its events sends the scan's progress notification in the writer's transaction
// (scans/events.ts), and a view is dropped when it arrives.
//
// Why this answers exactly what the database would:
// - PGlite (`live`): it is the only process, and it delivers a commit's notifications synchronously, before the
//   writer's await resumes and before any later statement runs, so no read can see a change the cache has not heard.
// - PostgreSQL: another process's notification arrives a moment after its commit, so only ended views are kept
//   (a scan never changes once ended: every writer leaves an ended scan alone).
// - A read that overlapped a change is not kept (the epoch moved while it ran).
import type { LeaderboardSchemas } from '@arl/contract';

type Scan = LeaderboardSchemas['Scan'];

export class ScanViewCache {
  private readonly views = new Map<string, Scan>();
  private epoch = 0;

  constructor(private readonly options: { live: boolean; max?: number }) {}

  /** A copy of the kept view (callers may change what they get), or undefined. */
  get(id: string): Scan | undefined {
    const view = this.views.get(id);
    return view && structuredClone(view);
  }

  /** Pass to keep(): a view read from the database is kept only if no change was heard while it was read. */
  get current(): number {
    return this.epoch;
  }

  keep(id: string, view: Scan, readSince: number): void {
    if (readSince !== this.epoch) return;
    if (!this.options.live && view.state !== 'ended') return;
    if (this.views.size >= (this.options.max ?? 10_000)) this.views.delete(this.views.keys().next().value!);
    this.views.set(id, structuredClone(view));
  }

  /** A scan's progress notification; `null` when notifications may have been missed (every view goes). */
  changed(id: string | null): void {
    this.epoch += 1;
    if (id === null) this.views.clear();
    else this.views.delete(id);
  }
}
