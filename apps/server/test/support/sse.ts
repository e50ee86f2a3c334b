// Reads a text/event-stream the way an EventSource does (fields id, event, data; comment lines kept apart), so the
// tests check the bytes on the wire, not a library's interpretation of them.
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export interface SseRead {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** True when the server ended the stream (as opposed to the reader stopping). */
  closedByServer: boolean;
}

export async function readEventStream(
  url: string,
  options: {
    headers?: Record<string, string>;
    until?: (events: SseEvent[], comments: string[]) => boolean;
    /** When the reader gives up: a deadline for a hang (the server ends a finished stream itself), not a speed budget. */
    timeoutMs?: number;
    /** Stops reading when aborted (before the answer came: status 0, nothing read). */
    signal?: AbortSignal;
  } = {},
): Promise<SseRead> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 120_000);
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  if (options.signal?.aborted) controller.abort();
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'text/event-stream', ...options.headers }, signal: controller.signal });
  } catch (err) {
    clearTimeout(timer);
    if (options.signal?.aborted) return { status: 0, headers: new Headers(), events: [], comments: [], closedByServer: false };
    throw err;
  }
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let closedByServer = false;
  if (res.status === 200 && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          closedByServer = true;
          break;
        }
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { event: 'message', data: '' };
          const data: string[] = [];
          let hasField = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id') event.id = v;
              else if (field === 'event') event.event = v;
              else if (field === 'data') data.push(v);
              else continue;
              hasField = true;
            }
          }
          if (hasField && data.length > 0) events.push({ ...event, data: data.join('\n') });
        }
        if (options.until?.(events, comments)) break;
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  } else {
    clearTimeout(timer);
    await res.text();
  }
  return { status: res.status, headers: res.headers, events, comments, closedByServer };
}
