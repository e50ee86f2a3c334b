/** A counting semaphore per host so one scan never opens more than N requests to the same server at once. */
export class HostLimiter {
  private readonly active = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();
  constructor(private readonly limit: number) {}

  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    const current = this.active.get(host) ?? 0;
    if (current < this.limit) {
      this.active.set(host, current + 1);
      return this.releaser(host);
    }
    await new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(host) ?? [];
      const onAbort = (): void => {
        const index = queue.indexOf(grant);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason ?? new Error('aborted'));
      };
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      queue.push(grant);
      this.waiting.set(host, queue);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser(host);
  }

  private releaser(host: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.get(host)?.shift();
      if (next) {
        next(); // the slot passes straight to the next waiter
        return;
      }
      const count = (this.active.get(host) ?? 1) - 1;
      if (count <= 0) this.active.delete(host);
      else this.active.set(host, count);
    };
  }
}
