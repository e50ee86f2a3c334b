// Operations 5 and 6: start or join a scan, read a scan.
import type { LeaderboardOperations } from '@arl/contract';
import { notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import { clientAddress } from '../http/rate-limit';
import type { Runtime } from '../runtime';

type ScanOperations = Pick<LeaderboardOperations, 'startScan' | 'getScan'>;

export function scanHandlers(runtime: Runtime): Handlers<ScanOperations> {
  return {
    async startScan({ req, body }) {
      // A refused URL (422) costs the client nothing: it is vetted before the scan is counted. Vetting costs us at
      // most one DNS lookup, the price of any read, while counting it would let a typo use up the minute.
      const vetted = await runtime.scans.vet(body.url);
      await runtime.scans.admit(clientAddress(req));
      const result = await runtime.scans.start(vetted, { email: body.email });
      return result.started ? { status: 202, body: result } : { status: 200, body: result };
    },
    async getScan({ path }) {
      const scan = await runtime.scans.read(path.scanId);
      if (!scan) throw notFound(`No scan has the id ${path.scanId}.`);
      return { status: 200, body: scan };
    },
  };
}
