// The open-data operations: getPopulationStats (JSON, validated like every answer) and the two dataset downloads,
// written row batch by row batch onto the response with back-pressure. A download is text the validator never
// buffers (it checks bodies sent with res.json only), so a million rows cost one batch of memory.
import type { LeaderboardOperations } from '@arl/contract';
import type { Db } from '@arl/db';
import type { Response } from 'express';
import type { Logger } from 'pino';
import type { Handlers } from '../http/operations';
import { rateLimited } from '../http/errors';
import type { LeaderboardService } from '../leaderboard/service';
import { datasetBatches, DATASET_MEDIA_TYPES, writeDataset, type DatasetFormat, type DatasetQuery } from './dataset';
import type { OpenDataService } from './service';

type OpenDataOperations = Pick<LeaderboardOperations, 'getPopulationStats' | 'getDatasetCsv' | 'getDatasetJsonl'>;

/** Downloads streaming at once per process: each holds a walk of the index and a share of the CPU for seconds. */
export const MAX_DOWNLOADS = 4;

export function openDataHandlers(service: OpenDataService, leaderboard: LeaderboardService, db: Db, clock: () => Date): Handlers<OpenDataOperations> {
  let downloads = 0;
  const download = async (format: DatasetFormat, query: DatasetQuery, res: Response, log: Logger) => {
    if (downloads >= MAX_DOWNLOADS) throw rateLimited(10, `At most ${MAX_DOWNLOADS} downloads of the dataset run at once; try again in a few seconds.`);
    downloads++;
    try {
      // Before the first byte: a failure here is still an error answer (the index could not be loaded).
      const batches = datasetBatches(leaderboard, db, query);
      const first = await batches.next();
      res.status(200);
      res.setHeader('Content-Type', DATASET_MEDIA_TYPES[format]);
      res.setHeader('Content-Disposition', `attachment; filename="agent-readiness-${clock().toISOString().slice(0, 10)}.${format}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      async function* all() {
        if (!first.done) yield first.value;
        yield* batches;
      }
      try {
        await writeDataset(all(), format, res);
        if (!res.writableEnded) res.end();
      } catch (err) {
        // Headers (and rows) are out: a cut connection is the only honest way to say the file is incomplete.
        log.error({ err }, 'dataset download failed after its first row');
        res.destroy();
      }
      return { status: 200 as const, streamed: true as const };
    } finally {
      downloads--;
    }
  };
  return {
    async getPopulationStats({ query }) {
      return { status: 200, body: await service.stats(query) };
    },
    async getDatasetCsv({ query, res, log }) {
      return download('csv', query, res, log);
    },
    async getDatasetJsonl({ query, res, log }) {
      return download('jsonl', query, res, log);
    },
  };
}
