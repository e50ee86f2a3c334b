// Follows a running scan or journey: its Server-Sent Events stream first; if the stream cannot be opened (an older
// server, a proxy that buffers, too many streams), the same state by polling the resource once a second.
export interface LiveOptions {
  streamUrl: string;
  /** Event name -> handler of its parsed data. */
  on: Record<string, (data: unknown, lastEventId: string) => void>;
  /** Name of the last event, after which the stream is done. */
  finalEvent: string;
  /** Reads the current state; returns true once it has ended. */
  poll: () => Promise<boolean>;
}

export function followLive(options: LiveOptions): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const source = new EventSource(options.streamUrl);
  for (const [name, handler] of Object.entries(options.on)) {
    source.addEventListener(name, (e) => {
      const message = e as MessageEvent<string>;
      handler(JSON.parse(message.data), message.lastEventId);
      if (name === options.finalEvent) source.close();
    });
  }
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED || stopped) return;
    const tick = async () => {
      if (stopped) return;
      let ended = false;
      try {
        ended = await options.poll();
      } catch {
        // A failed read is retried at the next tick.
      }
      if (!ended && !stopped) timer = setTimeout(() => void tick(), 1000);
    };
    void tick();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
    source.close();
  };
}
