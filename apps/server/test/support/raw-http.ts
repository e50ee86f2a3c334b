// Raw HTTP/1.1 exchanges for tests of what happens below Express (parser errors, CONNECT, absolute-form targets):
// bytes out, the raw answer back, and a small parser of that answer.
import * as net from 'node:net';

/**
 * Sends raw bytes and returns the raw answer once the server closes the connection (every caller's case). The timer
 * only ends a hang: far beyond a loaded machine's slow answer, which a short one would cut off.
 */
export function rawExchange(url: string, data: string, opts: { keepOpen?: boolean } = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(data));
    const timer = setTimeout(() => socket.destroy(), opts.keepOpen ? 120_000 : 60_000);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
  });
}

export function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let text = rest.join('\r\n\r\n');
  // A chunked answer (Express): the body is the first chunk.
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) text = text.split('\r\n')[1] ?? '';
  return { status: Number(statusLine.split(' ')[1]), headers, body: text ? JSON.parse(text) : undefined };
}
