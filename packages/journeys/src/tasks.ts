// One definition per task: what the agent is told, which links look promising, and which evidence answers it.
import type { JourneyEvidence, JourneyTask } from './types';

export interface TaskDefinition {
  task: JourneyTask;
  /** The goal as an agent is told it (the LLM driver's prompt, the cause sentences). */
  goal: string;
  /** Link text / URL signals with weights; negative weights steer away. */
  linkSignals: ReadonlyArray<readonly [RegExp, number]>;
  /** Evidence kinds reported for this task (the rest of what pages showed is not this task's business). */
  kinds: readonly string[];
  /** The task is done: the journey succeeded. */
  succeeded(evidence: readonly JourneyEvidence[]): boolean;
  /** Nothing more worth looking for: the heuristic agent stops. */
  complete(evidence: readonly JourneyEvidence[]): boolean;
  /** What was missing, for the cause of a failed journey. */
  missing: string;
}

const has = (evidence: readonly JourneyEvidence[], kind: string): boolean => evidence.some((e) => e.kind === kind);

// Pages every task avoids: they cannot answer any of them and some change state.
const AVOID: ReadonlyArray<readonly [RegExp, number]> = [
  [/\b(log ?out|sign ?out)\b/i, -20],
  [/\b(privacy|terms|cookies?|legal|careers|jobs|press)\b/i, -4],
  [/\.(png|jpe?g|gif|svg|css|js|ico|woff2?|zip|pdf)(\?|$)/i, -20],
];

export const TASKS: Readonly<Record<JourneyTask, TaskDefinition>> = {
  understand_product: {
    task: 'understand_product',
    goal: 'Find out what the company sells or makes: a short factual summary of the product and who it is for.',
    linkSignals: [[/llms(-full)?\.txt/i, 6], [/\b(about|product|features?|overview|how it works|what is|platform|solutions?)\b/i, 5], [/\b(docs|blog)\b/i, 1], ...AVOID],
    kinds: ['product_summary'],
    succeeded: (e) => has(e, 'product_summary'),
    // An authoritative summary (llms.txt, JSON-LD) settles it; a meta description alone is worth a second look.
    complete: (e) => e.some((x) => x.kind === 'product_summary' && /^(llms\.txt|\w+ JSON-LD|JSON-LD)/.test(x.detail)) || e.filter((x) => x.kind === 'product_summary').length >= 2,
    missing: 'no product summary (llms.txt, meta description, JSON-LD description) was found',
  },
  find_pricing: {
    task: 'find_pricing',
    goal: 'Find the pricing: the plans and at least one plan price.',
    linkSignals: [[/\b(pricing|prices?|plans?|cost|billing|subscribe|buy)\b/i, 8], [/llms(-full)?\.txt/i, 3], [/\b(product|features?)\b/i, 1], [/\b(log ?in|sign ?in)\b/i, -3], ...AVOID],
    kinds: ['pricing_page', 'plan_price'],
    succeeded: (e) => has(e, 'plan_price'),
    complete: (e) => has(e, 'plan_price') && has(e, 'pricing_page'),
    missing: 'no plan price was found',
  },
  get_started: {
    task: 'get_started',
    goal: 'Find how to get started as a new user or developer: the first steps (sign up, get a key, install, first call).',
    linkSignals: [[/\b(getting started|get started|quick ?start|start here|onboarding|tutorial)\b/i, 8], [/\b(docs|documentation|guides?|developers?)\b/i, 6], [/llms(-full)?\.txt/i, 3], [/\b(sign ?up)\b/i, 1], [/\b(log ?in|sign ?in)\b/i, -3], ...AVOID],
    kinds: ['docs_page', 'getting_started'],
    succeeded: (e) => has(e, 'getting_started'),
    complete: (e) => has(e, 'getting_started'),
    missing: 'no getting-started instructions were found',
  },
  api_docs: {
    task: 'api_docs',
    goal: 'Find the API documentation, ideally a machine-readable description (OpenAPI).',
    linkSignals: [[/openapi|swagger|api[-_ ]?(reference|docs?)|\/reference\b/i, 9], [/\bapi\b/i, 6], [/\b(docs|documentation|developers?)\b/i, 4], [/llms(-full)?\.txt/i, 3], [/\b(log ?in|sign ?in)\b/i, -3], ...AVOID],
    kinds: ['docs_page', 'api_reference', 'openapi_document'],
    succeeded: (e) => has(e, 'openapi_document') || has(e, 'api_reference'),
    complete: (e) => has(e, 'openapi_document') && has(e, 'api_reference'),
    missing: 'no API reference or OpenAPI document was found',
  },
  create_account: {
    task: 'create_account',
    goal: 'Find where a new customer creates an account: the sign-up page and its form (do not submit it).',
    linkSignals: [[/\b(sign ?up|register|create (an |your )?account|start (for )?free|try (it )?free|get started)\b/i, 9], [/\b(pricing|plans?)\b/i, 2], [/\b(log ?in|sign ?in)\b/i, -2], ...AVOID],
    kinds: ['signup_page', 'signup_form'],
    succeeded: (e) => has(e, 'signup_form'),
    complete: (e) => has(e, 'signup_form'),
    missing: 'no sign-up form was found',
  },
  get_support: {
    task: 'get_support',
    goal: 'Find how to reach support: a contact channel such as an e-mail address, a contact form or a phone number.',
    linkSignals: [[/\b(support|help|contact|customer service|status)\b/i, 8], [/^mailto:/i, -50], [/llms(-full)?\.txt/i, 2], [/\b(about)\b/i, 2], [/\b(log ?in|sign ?in)\b/i, -3], ...AVOID],
    kinds: ['support_page', 'support_channel'],
    succeeded: (e) => has(e, 'support_channel'),
    complete: (e) => has(e, 'support_channel') && has(e, 'support_page'),
    missing: 'no support channel (e-mail, phone, contact form) was found',
  },
};
