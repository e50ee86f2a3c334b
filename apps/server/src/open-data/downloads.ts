// What keeps the dataset downloads from being held by one client (issue 40): places counted per client (the socket's
// address, clientAddress: the notion the scan limit counts by), and a watchdog that ends a download whose reader has
// taken nothing for the idle window. Both apply to the live stream and to the day's snapshot served as a file.
import type { Writable } from 'node:stream';

/** Downloads running at once, per client. */
export class DownloadPlaces {
  private readonly held = new Map<string, number>();

  constructor(readonly perClient: number) {}

  /** Takes one of the client's places; false when it holds all of them already. */
  take(client: string): boolean {
    const n = this.held.get(client) ?? 0;
    if (n >= this.perClient) return false;
    this.held.set(client, n + 1);
    return true;
  }

  give(client: string): void {
    const n = (this.held.get(client) ?? 0) - 1;
    if (n > 0) this.held.set(client, n);
    else this.held.delete(client);
  }

  /** Places held now, all clients together (tests, logs). */
  get running(): number {
    let n = 0;
    for (const v of this.held.values()) n += v;
    return n;
  }
}

/**
 * Calls `onIdle` once when `out` has been blocked for `idleMs`: waiting for a drain that does not come (its buffer is
 * full, so the socket's and the kernel's buffers are too: the reader takes nothing), or ended with its last bytes
 * still waiting for the reader. A reader that takes anything, however slowly, resets the window; a producer that is
 * slow (the index walk) never counts, since nothing waits on the reader then. Checked every quarter of the window (at
 * most every second), so the cut comes between `idleMs` and `idleMs` plus one check. Returns the stop function.
 */
export function watchIdle(out: Writable, idleMs: number, onIdle: () => void): () => void {
  let blockedSince: number | null = null;
  const progressed = () => {
    blockedSince = null;
  };
  const timer = setInterval(() => {
    const blocked = !out.destroyed && (out.writableNeedDrain || (out.writableEnded && !out.writableFinished));
    if (!blocked) {
      blockedSince = null;
      return;
    }
    const now = Date.now();
    blockedSince ??= now;
    if (now - blockedSince >= idleMs) {
      stop();
      onIdle();
    }
  }, Math.max(10, Math.min(1_000, Math.floor(idleMs / 4))));
  timer.unref();
  out.on('drain', progressed);
  const stop = () => {
    clearInterval(timer);
    out.off('drain', progressed);
  };
  return stop;
}
