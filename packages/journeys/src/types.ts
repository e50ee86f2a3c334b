import type { FetchPolicy } from '@arl/scanner';

export const JOURNEY_TASKS = ['understand_product', 'find_pricing', 'get_started', 'api_docs', 'create_account', 'get_support'] as const;
export type JourneyTask = (typeof JOURNEY_TASKS)[number];

/** The task a journey runs when the caller names none: the one every site can answer and every other task builds on. */
export const DEFAULT_JOURNEY_TASK: JourneyTask = 'understand_product';

export const JOURNEY_OUTCOMES = ['succeeded', 'failed', 'blocked', 'sign_in_required'] as const;
export type JourneyOutcome = (typeof JOURNEY_OUTCOMES)[number];

export type DriverName = 'heuristic' | 'llm';

export type JourneyAction = 'open_url' | 'follow_link' | 'finish';

export interface JourneyStep {
  url: string;
  action: JourneyAction;
  /** What the agent saw there: status, title, access verdict, what it found. */
  seen: string;
  at: string;
}

export interface JourneyEvidence {
  /** pricing_page, plan_price, product_summary, docs_page, getting_started, api_reference, openapi_document, signup_page, signup_form, support_page, support_channel, agent_answer. */
  kind: string;
  url?: string;
  detail: string;
}

export interface JourneyBudgets {
  /** Pages opened at most (open_url + follow_link). */
  maxSteps: number;
  /** Wall-clock time for the whole journey. */
  timeMs: number;
  /** Response bytes read over the whole journey. */
  maxBytes: number;
  /** Bytes read from one page at most. */
  maxPageBytes: number;
}

export const DEFAULT_BUDGETS: JourneyBudgets = {
  maxSteps: 12,
  timeMs: 60_000,
  maxBytes: 4 * 1024 * 1024,
  maxPageBytes: 1024 * 1024,
};

export interface JourneyResult {
  task: JourneyTask;
  driver: DriverName;
  outcome: JourneyOutcome;
  /** One human sentence on the outcome. */
  cause: string;
  steps: JourneyStep[];
  evidence: JourneyEvidence[];
  durationMs: number;
  bytesRead: number;
}

export interface RunJourneyOptions {
  task: JourneyTask;
  startUrl: string;
  /** Passed to the scanner's guarded fetch: private addresses, DNS override, per-request caps. */
  fetchPolicy?: Partial<FetchPolicy>;
  driver: JourneyDriver;
  /** Aborting it (shutdown, lost lease) rejects runJourney with the signal's reason. */
  signal?: AbortSignal;
  budgets?: Partial<JourneyBudgets>;
  /** Called after every step, so a caller can persist progress. Errors it throws are ignored. */
  onStep?: (step: JourneyStep, evidence: readonly JourneyEvidence[]) => void | Promise<void>;
  clock?: () => Date;
}

/** What a driver reports when it stops; the engine turns it into an outcome with the evidence the pages showed. */
export interface DriverVerdict {
  /** The agent's own conclusion, when it gave one (the LLM driver's finish call). */
  claim?: { success: boolean; answer: string; urls: string[] };
  /** Why the driver stopped without a claim (budget, no more links, a broken model). */
  stoppedBecause?: string;
  /** A failure of the driver itself (the model endpoint, malformed tool calls): ends the journey failed. */
  driverFailure?: string;
}

export interface JourneyDriver {
  readonly name: DriverName;
  run(context: import('./session').DriverContext): Promise<DriverVerdict>;
}
