export { runJourney, JOURNEY_USER_AGENT } from './run-journey';
export { createHeuristicDriver } from './drivers/heuristic';
export { createLlmDriver } from './drivers/llm/llm-driver';
export { LlmEndpointError } from './drivers/llm/chat-client';
export type { LlmConfig } from './drivers/llm/chat-client';
export { TASKS } from './tasks';
export type { TaskDefinition } from './tasks';
export { JOURNEY_TASKS, JOURNEY_OUTCOMES, DEFAULT_JOURNEY_TASK, DEFAULT_BUDGETS } from './types';
export type {
  DriverName, DriverVerdict, JourneyAction, JourneyBudgets, JourneyDriver, JourneyEvidence, JourneyOutcome, JourneyResult,
  JourneyStep, JourneyTask, RunJourneyOptions,
} from './types';
export type { DriverContext } from './session';
