// Freshness prober (a child process of its own, so neither the load generator's event loop nor the server's delays
// its polls): hears each committed scan end as a UDP datagram from the process that ended it, polls the reading
// process until a read shows the new score (probe.ts), and reports the lags over IPC.
// IPC: {cmd:'target', url} sets the process read from; {cmd:'collect'} waits for the polls in flight and answers
// {lags, unseen}, then starts a new window.
import * as dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { type Change, PATIENCE_MS, waitVisible } from './probe';
const PAUSE_MS = 5;

let base = '';
let lags: number[] = [];
let unseen = 0;
const inFlight = new Set<Promise<void>>();

const socket = dgram.createSocket('udp4');
socket.on('message', (msg) => {
  const change = JSON.parse(msg.toString()) as Change;
  const poll = waitVisible(base, change, PATIENCE_MS, PAUSE_MS).then((lag) => {
    if (lag === null) unseen++;
    else lags.push(lag);
  });
  inFlight.add(poll);
  void poll.finally(() => inFlight.delete(poll));
});
socket.bind(0, '127.0.0.1', () => process.send!({ port: (socket.address() as AddressInfo).port }));

process.on('message', async (msg: { cmd: string; url?: string }) => {
  if (msg.cmd === 'target') {
    base = msg.url!;
    process.send!({});
  } else if (msg.cmd === 'collect') {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    process.send!({ lags, unseen });
    lags = [];
    unseen = 0;
  }
});
process.on('SIGTERM', () => process.exit(0));
