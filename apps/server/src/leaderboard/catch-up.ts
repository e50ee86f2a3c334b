// Finds the company changes this process did not hear. Every write to a company row takes a new version from one
// sequence (trigger of migration company_change_version), whoever writes it, so the database itself is the record of
// every change: a notification lost while the LISTEN connection was down, or never sent (the publisher lost
// PostgreSQL right after its commit, or was killed), is found by the next check, which reads the rows changed past
// a low-water mark and applies the ones no notification brought.
//
// Versions are taken when a transaction writes the row but become visible when it commits, so they do not appear in
// order. The low-water mark is therefore the highest version seen by a check at least WINDOW_MS ago: a version at or
// below it was taken before that check ran, and its transaction (a scan's end: six statements) committed long
// before now, so no version can still appear below the mark. Versions above it are re-read on every check and only
// the ones not applied yet cost a facts read.

/** How long a transaction may run between taking a version and committing, and still be caught. */
export const WINDOW_MS = 30_000;
/** After a load the index holds everything committed before it; versions taken before it may commit after it. */
export const LOAD_SLACK_VERSIONS = 1_000;
/** More changed rows than this since the mark: a full reload is cheaper than reading each company's facts. */
export const MAX_CATCH_UP_ROWS = 10_000;

export interface ChangedRow {
  id: string;
  version: number;
}

export interface CatchUpPlan {
  /** Rows changed past the mark that no notification or earlier check applied: read and apply their facts. */
  missed: string[];
  /** More changed rows than a catch-up reads: rebuild the index instead. */
  reload: boolean;
}

export class ChangeWatermark {
  /** (time, highest version seen) of each check, oldest first; the first is the mark of the load. */
  private marks: Array<{ at: number; version: number }> = [];
  /** Versions above the low-water mark that this process has applied. */
  private readonly applied = new Set<number>();

  /** Where a load that is about to read the companies starts its mark, given the highest version committed. */
  static loadLow(maxVersion: number): number {
    return Math.max(0, maxVersion - LOAD_SLACK_VERSIONS);
  }

  /**
   * A load is about to read the companies: `visible` are the rows changed past loadLow(maxVersion) as read before
   * it (the load reads them too, so they count as applied); rows taken before and committed after are not among
   * them, and the first checks find them.
   */
  loaded(maxVersion: number, visible: ChangedRow[], at: number): void {
    this.marks = [{ at, version: ChangeWatermark.loadLow(maxVersion) }];
    this.applied.clear();
    for (const r of visible) this.applied.add(r.version);
  }

  /** A notification's facts were applied (they carry the version their transaction gave the row). */
  heard(version: number | undefined): void {
    if (version !== undefined && version > this.low(Date.now())) this.applied.add(version);
  }

  /** The version to read changes past at time `now`. */
  low(now: number): number {
    let low = this.marks[0]?.version ?? 0;
    for (const mark of this.marks) {
      if (mark.at > now - WINDOW_MS) break;
      low = mark.version;
    }
    return low;
  }

  /** What a check that read `rows` (every row changed past `low(now)`, by version) must do. */
  plan(rows: ChangedRow[]): CatchUpPlan {
    if (rows.length > MAX_CATCH_UP_ROWS) return { missed: [], reload: true };
    return { missed: [...new Set(rows.filter((r) => !this.applied.has(r.version)).map((r) => r.id))], reload: false };
  }

  /** The check applied `rows` at `now`: remember them, record the mark, forget what fell below the low-water mark. */
  checked(rows: ChangedRow[], now: number): void {
    let highest = this.marks[this.marks.length - 1]?.version ?? 0;
    for (const r of rows) {
      this.applied.add(r.version);
      if (r.version > highest) highest = r.version;
    }
    this.marks.push({ at: now, version: highest });
    const low = this.low(now);
    // Keep the mark in use and everything newer; forget the applied versions it now covers.
    const inUse = this.marks.findIndex((m) => m.version === low && m.at <= now - WINDOW_MS);
    if (inUse > 0) this.marks = this.marks.slice(inUse);
    for (const v of this.applied) if (v <= low) this.applied.delete(v);
  }
}
