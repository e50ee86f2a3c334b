// The contract as TypeScript: everything here is generated from openapi/*.yaml by `npm run generate`
// (openapi-typescript, configured in redocly.yaml). Only this index and enums.ts are written by hand. Nothing here
// imports from Node, so it runs in a browser; file paths live in the `@arl/contract/node` subpath.
export type {
  paths as LeaderboardPaths,
  components as LeaderboardComponents,
  operations as LeaderboardOperations,
} from './generated/leaderboard.js';
export type {
  paths as FeedbackPaths,
  components as FeedbackComponents,
  operations as FeedbackOperations,
} from './generated/feedback.js';
export * as leaderboardValues from './generated/leaderboard.js';
export * as feedbackValues from './generated/feedback.js';
export * from './enums.js';

import type { components as L } from './generated/leaderboard.js';
import type { components as F } from './generated/feedback.js';

/** Schema types by name, for handlers and callers that want one without indexing `components`. */
export type LeaderboardSchemas = L['schemas'];
export type FeedbackSchemas = F['schemas'];
