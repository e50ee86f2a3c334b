// One deadline for a whole `arl check` (--timeout): the baseline read, the scan and every request share it. Each
// request gets an AbortSignal for the time that is left, so no single read can outlive the run, however the
// service behaves (silent, dripping, endless).
import { sleep } from './progress';

export class Deadline {
  private constructor(private readonly at: number, readonly totalMs: number) {}

  /** `ms` from `start` (epoch ms; default now). The binary passes its process's start, so start-up counts too. */
  static after(ms: number, start = Date.now()): Deadline {
    return new Deadline(start + ms, ms);
  }

  remainingMs(): number {
    return Math.max(0, Math.ceil(this.at - Date.now())); // whole ms: AbortSignal.timeout takes integers only
  }

  get expired(): boolean {
    return this.remainingMs() === 0;
  }

  /** Aborts when the deadline passes (at least 1 ms from now: AbortSignal.timeout(0) is a valid "already late"). */
  signal(): AbortSignal {
    return AbortSignal.timeout(Math.max(1, this.remainingMs()));
  }

  /** Waits `ms`, or until the deadline if that comes first. */
  sleep(ms: number): Promise<void> {
    return sleep(Math.min(ms, this.remainingMs()));
  }

  /** For messages: `the 5 s timeout (--timeout)`. */
  describe(): string {
    return `the ${Math.round(this.totalMs / 1000)} s timeout (--timeout)`;
  }
}
