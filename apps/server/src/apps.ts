// One Express app per host (the validator mishandles several documents in one app), both built from the contract.
import { specPaths, type FeedbackOperations, type LeaderboardOperations } from '@arl/contract';
import type express from 'express';
import { feedbackHandlers } from './feedback/handlers';
import { healthHandlers } from './health';
import { createContractApp } from './http/contract-app';
import { journeyHandlers } from './journeys/handlers';
import { leaderboardReadHandlers } from './leaderboard/handlers';
import type { Runtime } from './runtime';
import { scanHandlers } from './scans/handlers';

export function createLeaderboardApp(runtime: Runtime): express.Express {
  const health = healthHandlers(runtime.readiness);
  return createContractApp<LeaderboardOperations>({
    specPath: specPaths.leaderboard,
    logger: runtime.logger.child({ host: 'leaderboard' }),
    validateResponses: runtime.config.validateResponses,
    handlers: {
      getHealth: health.live,
      getReadiness: health.ready,
      ...leaderboardReadHandlers(runtime.leaderboard),
      ...scanHandlers(runtime),
      ...journeyHandlers(runtime.journeys),
    },
  });
}

export function createFeedbackApp(runtime: Runtime): express.Express {
  const health = healthHandlers(runtime.readiness);
  return createContractApp<FeedbackOperations>({
    specPath: specPaths.feedback,
    logger: runtime.logger.child({ host: 'feedback' }),
    validateResponses: runtime.config.validateResponses,
    handlers: {
      getFeedbackHealth: health.live,
      getFeedbackReadiness: health.ready,
      ...feedbackHandlers(runtime.feedback),
    },
  });
}
