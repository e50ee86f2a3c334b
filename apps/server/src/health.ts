import { serviceUnavailable } from './http/errors';

/** Readiness: the database answers, the process hears changes and is not draining. Shared by both hosts. */
export interface Readiness {
  draining: boolean;
  /** Rejects with a NotReady naming why the process should get no traffic, or any error when the database fails. */
  check(): Promise<void>;
}

/** A reason not to be ready that is ours to say (any other error reads as the database not answering). */
export class NotReady extends Error {}

export function healthHandlers(readiness: Readiness) {
  return {
    async live() {
      return { status: 200 as const, body: { status: 'ok' as const } };
    },
    async ready() {
      if (readiness.draining) throw serviceUnavailable('The service is shutting down.', 'service_unavailable', 5);
      try {
        await readiness.check();
      } catch (err) {
        throw serviceUnavailable(err instanceof NotReady ? err.message : 'The database does not answer.', 'service_unavailable', 5);
      }
      return { status: 200 as const, body: { status: 'ok' as const } };
    },
  };
}
