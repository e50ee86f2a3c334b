// The contract as TypeScript: everything here is generated from openapi/*.yaml by `npm run generate`
// (openapi-typescript, configured in redocly.yaml). Only this index is written by hand. It imports nothing from
// Node, so it runs in a browser; file paths live in the `@arl/contract/node` subpath.

export type {
  paths as LeaderboardPaths,
  components as LeaderboardComponents,
  operations as LeaderboardOperations,
} from './generated/leaderboard';
export type {
  paths as FeedbackPaths,
  components as FeedbackComponents,
  operations as FeedbackOperations,
} from './generated/feedback';
export * as leaderboardValues from './generated/leaderboard';
export * as feedbackValues from './generated/feedback';

import type { components as L } from './generated/leaderboard';
import type { components as F } from './generated/feedback';

/** Schema types by name, for handlers and callers that want one without indexing `components`. */
export type LeaderboardSchemas = L['schemas'];
export type FeedbackSchemas = F['schemas'];
