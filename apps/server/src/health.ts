import { serviceUnavailable } from './http/errors';

/** Readiness: the database answers and the process is not draining. Shared by both hosts. */
export interface Readiness {
  draining: boolean;
  check(): Promise<void>;
}

export function healthHandlers(readiness: Readiness) {
  return {
    async live() {
      return { status: 200 as const, body: { status: 'ok' as const } };
    },
    async ready() {
      if (readiness.draining) throw serviceUnavailable('The service is shutting down.', 'service_unavailable', 5);
      try {
        await readiness.check();
      } catch {
        throw serviceUnavailable('The database does not answer.', 'service_unavailable', 5);
      }
      return { status: 200 as const, body: { status: 'ok' as const } };
    },
  };
}
