// The open-data operations: getPopulationStats (JSON, validated like every answer) and the two dataset downloads.
// A download is the day's snapshot (`npm run export`'s file in DATASET_SNAPSHOT_DIR) served as a file, with ETag,
// Last-Modified and byte ranges (Express's res.sendFile, which is the `send` package), when that file exists; else
// the live rows, written batch by batch onto the response with back-pressure. Neither is buffered or validated as a
// body (the validator checks bodies sent with res.json only), so a million rows cost one batch of memory.
// Nobody can hold them (issue 40): at most MAX_DOWNLOADS at once per client, and a download whose reader takes nothing
// for the idle window (DATASET_IDLE_TIMEOUT) is ended (downloads.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LeaderboardOperations } from '@arl/contract';
import type { Db } from '@arl/db';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Handlers } from '../http/operations';
import { ApiError, rateLimited } from '../http/errors';
import { clientAddress } from '../http/rate-limit';
import type { LeaderboardService } from '../leaderboard/service';
import { datasetBatches, DATASET_MEDIA_TYPES, writeDataset, type DatasetFormat, type DatasetQuery } from './dataset';
import { DownloadPlaces, watchIdle } from './downloads';
import type { OpenDataService } from './service';
import { snapshotName } from './snapshot';

type OpenDataOperations = Pick<LeaderboardOperations, 'getPopulationStats' | 'getDatasetCsv' | 'getDatasetJsonl'>;

/** Downloads running at once per client (address): each holds a walk of the index, or a file, while its reader reads. */
export const MAX_DOWNLOADS = 4;

/** The headers a file answer sets, taken off again when it turns into an error. */
const FILE_HEADERS = ['Content-Type', 'Content-Disposition', 'Content-Range', 'Content-Length', 'ETag', 'Last-Modified', 'Accept-Ranges', 'Cache-Control'];

export function openDataHandlers(service: OpenDataService, leaderboard: LeaderboardService, db: Db, clock: () => Date): Handlers<OpenDataOperations> {
  const places = new DownloadPlaces(MAX_DOWNLOADS);
  const download = async (format: DatasetFormat, query: DatasetQuery, req: Request, res: Response, log: Logger) => {
    // The client as every per-client limit counts it (the scan limit's notion); a call without a connection
    // (in-process) is one client.
    const client = req.socket ? clientAddress(req) : 'unknown';
    if (!places.take(client)) {
      throw rateLimited(10, `At most ${MAX_DOWNLOADS} downloads of the dataset run at once per client; try again in a few seconds.`);
    }
    const { snapshotDir, idleTimeoutMs } = service.downloads;
    // The place is held until the response is over (sent, cut or abandoned), whoever ends it.
    const stopWatching = watchIdle(res, idleTimeoutMs, () => {
      log.warn({ client, idleTimeoutMs }, 'dataset download ended: its reader took nothing for the idle window');
      res.destroy();
    });
    res.once('close', () => {
      stopWatching();
      places.give(client);
    });
    const now = clock();
    const attachment = `attachment; filename="agent-readiness-${now.toISOString().slice(0, 10)}.${format}"`;

    const file = snapshotDir === null ? null : await snapshotOf(snapshotDir, snapshotName(format, now, query));
    if (file && (await sendSnapshot(file, format, attachment, res, log))) return { status: 200 as const, streamed: true as const };

    // Before the first byte: a failure here is still an error answer (the index could not be loaded).
    const batches = datasetBatches(leaderboard, db, query);
    const first = await batches.next();
    res.status(200);
    res.setHeader('Content-Type', DATASET_MEDIA_TYPES[format]);
    res.setHeader('Content-Disposition', attachment);
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
  };
  return {
    async getPopulationStats({ query }) {
      return { status: 200, body: await service.stats(query) };
    },
    async getDatasetCsv({ query, req, res, log }) {
      return download('csv', query, req, res, log);
    },
    async getDatasetJsonl({ query, req, res, log }) {
      return download('jsonl', query, req, res, log);
    },
  };
}

/** The snapshot's file and its strong ETag, when the folder holds one under that name. */
async function snapshotOf(dir: string, name: string): Promise<{ dir: string; name: string; etag: string } | null> {
  try {
    const stat = await fs.promises.stat(path.join(dir, name));
    if (!stat.isFile()) return null;
    // Strong: a snapshot is written under a temporary name and renamed into place, so the bytes under one size and
    // modification time never change (a new export of the day is a new file, a new mtime). Taken before send reads
    // the file: if a new export lands in between, this tag is older than the bytes, so a later If-Range or
    // If-None-Match with it does not match the file then current and gets the whole new file (never a mix).
    return { dir, name, etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"` };
  } catch {
    return null;
  }
}

/**
 * Serves the snapshot through res.sendFile (the `send` package under Express): Accept-Ranges, Range (one range: 206
 * with Content-Range; unsatisfiable: 416), If-Range, If-None-Match / If-Modified-Since (304), If-Match /
 * If-Unmodified-Since (412), HEAD. Resolves true once the answer is over, false when the file went away before it
 * began (the live rows are sent instead); rejects with the contract's error for 412 and 416.
 */
function sendSnapshot(
  file: { dir: string; name: string; etag: string },
  format: DatasetFormat,
  attachment: string,
  res: Response,
  log: Logger,
): Promise<boolean> {
  // HEAD arrives here as GET (http/head-as-get.ts); Node knows from the request that this answer has no body.
  // send, told so, ends after the headers instead of streaming a file nobody will read.
  const req = res.req;
  if ((res as unknown as { _hasBody?: boolean })._hasBody === false) req.method = 'HEAD';
  return new Promise((resolve, reject) => {
    res.sendFile(
      file.name,
      {
        root: file.dir,
        dotfiles: 'deny',
        acceptRanges: true,
        lastModified: true,
        cacheControl: false,
        headers: { 'Content-Type': DATASET_MEDIA_TYPES[format], 'Content-Disposition': attachment, 'X-Content-Type-Options': 'nosniff', ETag: file.etag },
      },
      (failure?: Error) => {
        const err = failure as (Error & { status?: number; code?: string; headers?: Record<string, string> }) | undefined;
        if (!err || err.code === 'ECONNABORTED') return resolve(true);
        if (res.headersSent) {
          // The file failed mid-way: cut, so the part sent is not taken for the whole.
          log.error({ err }, 'dataset snapshot failed after its first byte');
          res.destroy();
          return resolve(true);
        }
        for (const header of FILE_HEADERS) res.removeHeader(header);
        if (err.status === 416) {
          const range = err.headers?.['Content-Range'] ?? '';
          return reject(new ApiError(416, 'range_not_satisfiable', `The range asked for is not within the file (${range.replace('bytes */', '')} bytes); ask for a range that starts before its end.`, { 'Content-Range': range }));
        }
        if (err.status === 412) return reject(new ApiError(412, 'precondition_failed', 'The file is not the one If-Match or If-Unmodified-Since names; it changed since.'));
        // Gone between the look and the read (a new export being renamed into place): the live rows instead.
        if (err.status === 404) return resolve(false);
        reject(err);
      },
    );
  });
}
