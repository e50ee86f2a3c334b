// One Express app per host (the validator mishandles several documents in one app), both built from the contract.
import type { FeedbackOperations, LeaderboardOperations } from '@arl/contract';
import { specPaths } from '@arl/contract/node';
import type * as http from 'node:http';
import { createWebPages } from '@arl/web';
import type express from 'express';
import { feedbackDiscoveryHandlers, homeLinkHeader, leaderboardDiscoveryHandlers } from './discovery/handlers';
import { feedbackHandlers } from './feedback/handlers';
import { feedbackDisputeHandlers, leaderboardDisputeHandlers } from './disputes/handlers';
import { healthHandlers } from './health';
import { createContractApp } from './http/contract-app';
import { coverageHandlers } from './scan-coverage/handlers';
import { corsHandler } from './http/cors';
import { documentHandlers } from './http/documents';
import { DirectReads } from './http/direct-reads';
import { ResponseCache } from './http/response-cache';
import { journeyHandlers } from './journeys/handlers';
import { leaderboardReadHandlers } from './leaderboard/handlers';
import { a2aHandlers } from './a2a/handlers';
import { mcpEndpointFor } from './mcp/hosts';
import type { HandlerMap } from './mcp/tool';
import type { OperationHandler } from './http/operations';
import { methodologyHandlers } from './methodology/handlers';
import { reportHandlers } from './reports/handlers';
import { ReportService } from './reports/service';
import type { Runtime } from './runtime';
import { scanHandlers } from './scans/handlers';
import { streamHandlers } from './streams/handlers';
import { errorPageRenderer } from './web/error-pages';
import { webHandlers } from './web/handlers';
import { webhookHandlers } from './webhooks/handlers';
import { compareHandlers } from './compare/handlers';
import { badgeHandlers } from './badges/handlers';
import { checkHistoryHandlers } from './check-history/handlers';
import { openDataHandlers, openDataOf } from './open-data';
import { inProcessClient } from './web/in-process-client';

type LeaderboardHandlers = Record<string, OperationHandler<unknown>>;

interface BuiltHandlers {
  handlers: LeaderboardHandlers;
  pages: ReturnType<typeof createWebPages>;
  /** The contract compiled once for the direct reads and the pages' in-process reads. */
  reads: DirectReads;
}

/** Every operation's handler of the leaderboard host (one set per host: the MCP tools and direct reads share it). */
function leaderboardHandlers(runtime: Runtime, responseCache?: ResponseCache): BuiltHandlers {
  const health = healthHandlers(runtime.readiness);
  const documents = documentHandlers('leaderboard');
  // The pages read the API through @arl/client, in process: the cache, then the handlers through the compiled
  // contract (see web/in-process-client.ts), compiled below once the handlers exist.
  let reads: DirectReads | undefined;
  const pages = createWebPages({
    api: inProcessClient(() => reads!, responseCache),
    publicUrl: runtime.config.publicUrl,
    feedbackUrl: runtime.config.feedbackPublicUrl,
    // The MCP tools offered to agents running in the pages (discovery/webmcp.ts).
    hostScripts: ['/webmcp.js'],
  });
  const operations = {
    getHealth: health.live,
    getReadiness: health.ready,
    getOpenApiYaml: documents.yaml,
    getOpenApiJson: documents.json,
    getApiDocs: documents.docs,
    ...leaderboardReadHandlers(runtime.leaderboard),
    ...methodologyHandlers(),
    ...reportHandlers(new ReportService(runtime.db, runtime.clock)),
    ...scanHandlers(runtime),
    ...journeyHandlers(runtime.journeys),
    ...streamHandlers(runtime),
    ...leaderboardDiscoveryHandlers(runtime),
    ...coverageHandlers(runtime.db),
    ...webhookHandlers(runtime, runtime.webhooks),
    ...compareHandlers(runtime.leaderboard),
    ...badgeHandlers(runtime.leaderboard),
    ...checkHistoryHandlers(runtime.db, runtime.clock),
    ...leaderboardDisputeHandlers(runtime.disputes, runtime.feedback),
    ...openDataHandlers(openDataOf(runtime), runtime.leaderboard, runtime.db, runtime.clock),
    ...webHandlers(pages, runtime.config.feedbackPublicUrl, responseCache),
  };
  // The MCP tools run the same handler instances (and so share their rate limiters).
  const handlers = {
    ...operations,
    postMcp: mcpEndpointFor('leaderboard', runtime.config, operations as unknown as HandlerMap),
    ...a2aHandlers(runtime, operations as unknown as HandlerMap),
  };
  reads = new DirectReads({
    specPath: specPaths.leaderboard,
    operationIds: DIRECT_READS,
    inProcessOperationIds: PAGE_READS,
    handlers: handlers as unknown as LeaderboardHandlers,
    cache: responseCache,
    logger: runtime.logger.child({ host: 'leaderboard' }),
    validateResponses: runtime.config.validateResponses,
  });
  return { handlers: handlers as unknown as LeaderboardHandlers, pages, reads };
}

export function createLeaderboardApp(
  runtime: Runtime,
  responseCache?: ResponseCache,
  built: BuiltHandlers = leaderboardHandlers(runtime, responseCache),
): express.Express {
  return createContractApp<LeaderboardOperations>({
    specPath: specPaths.leaderboard,
    logger: runtime.logger.child({ host: 'leaderboard' }),
    validateResponses: runtime.config.validateResponses,
    corsOrigins: runtime.config.corsOrigins,
    responseCache,
    handlers: built.handlers as never,
    errorPage: errorPageRenderer(built.pages, runtime.config.feedbackPublicUrl),
  });
}

// Operations 1-3 depend only on the live index and on data that changes with it (every change it applies, and every
// 7-day fact the clock moves, gives it a new version, which retires every cached answer).
const CACHED_READ = /^\/v1\/leaderboard(?:\/categories|\/companies\/[^/]+)?$/;

export function createLeaderboardReadCache(runtime: Runtime): ResponseCache {
  return new ResponseCache(
    { currentVersion: () => runtime.leaderboard.currentVersion(), cacheable: (pathname) => CACHED_READ.test(pathname) },
    runtime.logger.child({ host: 'leaderboard' }),
  );
}

/**
 * The operations whose plain valid GETs are answered without Express (see http/direct-reads.ts): the ranked reads
 * people, crawlers and agents land on, operation 6, which clients poll while a scan runs, and the population
 * statistics (open-data/), a large answer whose frozen parts are validated and serialized once.
 */
export const DIRECT_READS = ['listLeaderboard', 'listCategories', 'getCompany', 'getScan', 'getPopulationStats'];

/**
 * Every read the pages' server side makes (apps/web/src/server), run in process through the same compiled contract
 * (web/in-process-client.ts); none of their handlers reads the request or writes the response itself.
 */
export const PAGE_READS = [
  ...DIRECT_READS, 'getCoverage', 'getCompanyReport', 'getCompanyHistory', 'listCheckChanges', 'listCompanyDisputes',
  'getJourney', 'getScanReport', 'getMethodology', 'compareCompanies',
];

export function createDirectReads(runtime: Runtime, cache: ResponseCache): DirectReads {
  return leaderboardHandlers(runtime, cache).reads;
}

/**
 * The leaderboard host's request listener: cached reads first, then plain reads answered directly, everything else
 * (and anything those two are unsure of) through the contract app.
 */
export function createLeaderboardListener(
  runtime: Runtime,
  cache = createLeaderboardReadCache(runtime),
  directReads?: DirectReads | null,
): http.RequestListener {
  const built = leaderboardHandlers(runtime, cache);
  const app = createLeaderboardApp(runtime, cache, built);
  const direct = directReads === undefined ? built.reads : directReads;
  // A cached answer skips Express, so it gets its CORS headers here (preflights always go through the app).
  const cors = corsHandler(runtime.config.corsOrigins);
  const link = homeLinkHeader(runtime);
  return (req, res) => {
    if (req.method === 'OPTIONS') return void app(req, res);
    // The pages for people say where the machine-readable descriptions are (RFC 8288); the API answers do not need to.
    if (isPage(req.url)) res.setHeader('Link', link);
    cors(req, res, () => {
      if (cache.serveHit(req, res)) return;
      if (direct?.serve(req, res, () => app(req, res))) return;
      app(req, res);
    });
  };
}

function isPage(url: string | undefined): boolean {
  // Lower-cased as Express routes: /V1/leaderboard is the API too.
  const path = (url ?? '/').split('?')[0].toLowerCase();
  return !path.startsWith('/v1/') && !path.startsWith('/mcp') && !path.startsWith('/.well-known/');
}

export function createFeedbackApp(runtime: Runtime): express.Express {
  const health = healthHandlers(runtime.readiness);
  const documents = documentHandlers('feedback');
  const operations = {
    getFeedbackHealth: health.live,
    getFeedbackReadiness: health.ready,
    getFeedbackOpenApiYaml: documents.yaml,
    getFeedbackOpenApiJson: documents.json,
    getFeedbackApiDocs: documents.docs,
    ...feedbackHandlers(runtime.feedback),
    ...feedbackDisputeHandlers(runtime.disputes, runtime.feedback),
    ...feedbackDiscoveryHandlers(runtime),
  };
  return createContractApp<FeedbackOperations>({
    specPath: specPaths.feedback,
    logger: runtime.logger.child({ host: 'feedback' }),
    validateResponses: runtime.config.validateResponses,
    corsOrigins: runtime.config.corsOrigins,
    handlers: { ...operations, postFeedbackMcp: mcpEndpointFor('feedback', runtime.config, operations as unknown as HandlerMap) },
  });
}
