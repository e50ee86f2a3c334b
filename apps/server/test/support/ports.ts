// Free loopback ports chosen before the hosts start, so PUBLIC_URL and FEEDBACK_PUBLIC_URL can name the addresses
// the hosts really listen on (documents and cards that carry absolute URLs are then followed for real).
import * as net from 'node:net';

export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Options for startTestServer: fixed ports and the public URLs that name them. */
export async function realPublicUrls(): Promise<{ ports: { port: number; feedbackPort: number }; env: Record<string, string> }> {
  const port = await freePort();
  const feedbackPort = await freePort();
  return { ports: { port, feedbackPort }, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, FEEDBACK_PUBLIC_URL: `http://127.0.0.1:${feedbackPort}` } };
}
