// Starts both hosts on one Runtime and stops them gracefully: stop accepting, let in-flight requests finish,
// then close the runtime. A second signal, or the deadline, forces the exit.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { specPaths } from '@arl/contract/node';
import { createFeedbackApp, createLeaderboardListener } from './apps';
import { answerClientErrors } from './http/client-errors';
import { originFormTarget } from './http/request-target';
import { instrumentListener } from './metrics/http-metrics';
import type { Runtime } from './runtime';

export interface RunningServers {
  leaderboardUrl: string;
  feedbackUrl: string;
  leaderboard: http.Server;
  feedback: http.Server;
  /** Idempotent. */
  close(): Promise<void>;
}

export async function listen(runtime: Runtime, ports = { port: runtime.config.port, feedbackPort: runtime.config.feedbackPort }): Promise<RunningServers> {
  const { host } = runtime.config;
  const leaderboardListener = instrumentListener(createLeaderboardListener(runtime), 'leaderboard', specPaths.leaderboard, runtime.metrics);
  const feedbackListener = instrumentListener(createFeedbackApp(runtime), 'feedback', specPaths.feedback, runtime.metrics);
  const leaderboard = await start(http.createServer(originFormTarget(leaderboardListener)), host, ports.port, runtime);
  const feedback = await start(http.createServer(originFormTarget(feedbackListener)), host, ports.feedbackPort, runtime);
  let closing: Promise<void> | null = null;
  return {
    leaderboard,
    feedback,
    leaderboardUrl: urlOf(leaderboard),
    feedbackUrl: urlOf(feedback),
    close() {
      // Open event streams would hold the server open until their clients leave: end them first.
      runtime.streams.closeAll();
      closing ??= Promise.all([stop(leaderboard), stop(feedback)]).then(() => undefined);
      return closing;
    },
  };
}

function start(server: http.Server, host: string, port: number, runtime: Runtime): Promise<http.Server> {
  // Bounded request handling: slow or idle clients cannot hold sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  answerClientErrors(server, runtime.logger);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function stop(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

function urlOf(server: http.Server): string {
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
