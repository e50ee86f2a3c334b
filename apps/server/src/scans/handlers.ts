import type { LeaderboardOperations } from '@arl/contract';
import { notImplemented } from '../http/errors';
import type { Handlers } from '../http/operations';

type ScanOperations = Pick<LeaderboardOperations, 'startScan' | 'getScan'>;

export function scanHandlers(): Handlers<ScanOperations> {
  return {
    async startScan() {
      throw notImplemented('Starting a scan');
    },
    async getScan() {
      throw notImplemented('Reading a scan');
    },
  };
}
