// A job that has done its work (a scan that ran for a minute) must not lose it because PostgreSQL restarted at the
// moment of writing it down: the write is tried again, with a capped backoff, while the database does not answer and
// the job still holds its lease and deadline (the signal). Any other error is the job's own and is thrown at once.
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../database-unavailable';

export async function retryWhileDatabaseDown<T>(write: () => Promise<T>, signal: AbortSignal, logger: Logger, what: string): Promise<T> {
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isDatabaseUnavailable(err) || signal.aborted) throw err;
      logger.warn({ err, attempt, retryInMs: delay }, `database unavailable: ${what} is tried again`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 2_000);
    }
  }
}
