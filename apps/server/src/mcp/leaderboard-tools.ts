// The leaderboard host's tools. Each names the contract operation(s) it runs; its schemas are that operation's
// (http/operation-shapes.ts). Descriptions say when to use the tool and what comes back, for an agent choosing tools.
import { ApiError } from '../http/errors';
import type { OpenApiReader } from '../http/openapi-resolve';
import { operationShape, type JsonSchema } from '../http/operation-shapes';
import { argumentsOf, defineTool, invokeOperation, type CheckedTool, type HandlerMap } from './tool';

/** How long get_scan may wait for a scan to end, at most (a client's request timeout is often 60 s). */
export const MAX_WAIT_SECONDS = 25;
const POLL_MS = 500;

export function leaderboardTools(reader: OpenApiReader, handlers: HandlerMap): CheckedTool[] {
  const shape = (operationId: string) => operationShape(reader, operationId);
  const list = shape('listLeaderboard');
  const categories = shape('listCategories');
  const company = shape('getCompany');
  const companyReport = shape('getCompanyReport');
  const methodology = shape('getMethodology');
  const startScan = shape('startScan');
  const getScan = shape('getScan');
  const startJourney = shape('startJourney');
  const getJourney = shape('getJourney');
  const compare = shape('compareCompanies');
  const subscribe = shape('createWebhook');
  const stats = shape('getPopulationStats');
  // get_dataset_info answers the `dataset` part of the statistics: its schema is that property's, from the contract.
  const datasetSchema = (stats.output.properties as Record<string, JsonSchema>).dataset;

  const waitSeconds: JsonSchema = {
    type: 'integer',
    minimum: 0,
    maximum: MAX_WAIT_SECONDS,
    default: 0,
    description: `Seconds to wait for the scan to end before answering (0 to ${MAX_WAIT_SECONDS}); the answer comes as soon as it ends. 0 answers at once.`,
  };

  return [
    defineTool({
      name: 'search_leaderboard',
      title: 'Search the leaderboard',
      description:
        'Lists ranked companies by agent-readiness score (best first by default), one page at a time. Use it to find a company, compare companies or browse a category: filter with q (name or domain) and category (a slug from list_categories), sort with sort/order, and pass nextCursor back as cursor for the next page. Only scanned companies are listed.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: list.input,
      outputSchema: list.output,
      call: (args, ctx) => invokeOperation(handlers, list, args, ctx),
    }),
    defineTool({
      name: 'list_categories',
      title: 'List categories',
      description: 'Lists every category of companies (id, name, slug), ordered by name. Use a slug as the category filter of search_leaderboard.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: categories.input,
      outputSchema: categories.output,
      call: (args, ctx) => invokeOperation(handlers, categories, args, ctx),
    }),
    defineTool({
      name: 'get_company',
      title: 'Read a company and its report',
      description:
        "Reads one company by domain (for example stripe.com): its score, grade, ranks, layers and checks, plus the full report of its latest scored scan (every check's evidence and the fix to apply), or report null when it was never scored. Use it to explain a company's result or what it should change.",
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: company.input,
      outputSchema: {
        type: 'object',
        additionalProperties: false,
        required: ['company', 'report'],
        properties: {
          company: { ...company.output, description: 'The company with its current result (the getCompany answer of the HTTP API).' },
          report: { anyOf: [companyReport.output, { type: 'null' }], description: "The report of the company's latest scored scan; null when it has never been scored." },
        },
      },
      async call(args, ctx) {
        const detail = await invokeOperation(handlers, company, args, ctx);
        let report: Record<string, unknown> | null = null;
        try {
          report = await invokeOperation(handlers, companyReport, argumentsOf(companyReport, args), ctx);
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 404)) throw err;
        }
        return { company: detail, report };
      },
    }),
    defineTool({
      name: 'get_methodology',
      title: 'Read the scoring methodology',
      description:
        'Returns how scores are computed, as data: every check of the catalog (what it looks for, which targets it applies to, how to fix it), layer weights, points per tier, caps, capabilities and grade bands. Use it to explain a score or a grade.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: methodology.input,
      outputSchema: methodology.output,
      call: (args, ctx) => invokeOperation(handlers, methodology, args, ctx),
    }),
    defineTool({
      name: 'start_scan',
      title: 'Start or join a scan',
      description:
        'Scans a website, MCP server or MCP App for agent readiness (it fetches the URL over the internet). If a scan of the same URL is already running you join it (started false) instead of starting another. Returns the scan id and state; then call get_scan with that id (and waitSeconds) to get the score and grade. Give email to have the result mailed. Rate limited per client.',
      readOnly: false,
      idempotent: false,
      openWorld: true,
      inputSchema: startScan.input,
      outputSchema: startScan.output,
      call: (args, ctx) => invokeOperation(handlers, startScan, args, ctx),
    }),
    defineTool({
      name: 'get_scan',
      title: 'Read a scan',
      description:
        'Reads a scan started with start_scan: its state and steps, and once ended how it ended, its score and grade. Set waitSeconds to wait up to that long for the scan to end (scans usually take a few seconds). For the full report with evidence and fixes, call get_company with the scan\'s domain.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: { ...getScan.input, properties: { ...getScan.input.properties, waitSeconds } },
      outputSchema: getScan.output,
      async call(args, ctx) {
        const deadline = Date.now() + Number(args.waitSeconds ?? 0) * 1000;
        const own = argumentsOf(getScan, args);
        for (;;) {
          const scan = await invokeOperation(handlers, getScan, own, ctx);
          if (scan.state === 'ended' || Date.now() >= deadline || ctx.signal.aborted) return scan;
          await sleep(Math.min(POLL_MS, deadline - Date.now()), ctx.signal);
        }
      },
    }),
    defineTool({
      name: 'start_journey',
      title: 'Start or watch a journey',
      description:
        "Sends an agent to try a task on a company's website (understand_product by default; also find_pricing, get_started, api_docs, create_account, get_support), browsing within page and time budgets. If one is already running for the company you watch that one (started false). Returns the journey id and state; follow it with get_journey.",
      readOnly: false,
      idempotent: false,
      openWorld: true,
      inputSchema: startJourney.input,
      outputSchema: startJourney.output,
      call: (args, ctx) => invokeOperation(handlers, startJourney, args, ctx),
    }),
    defineTool({
      name: 'get_journey',
      title: 'Read a journey',
      description: 'Reads a journey started with start_journey: its state, the steps the agent took, and once ended its outcome, cause and evidence.',
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: getJourney.input,
      outputSchema: getJourney.output,
      call: (args, ctx) => invokeOperation(handlers, getJourney, args, ctx),
    }),
    defineTool({
      name: 'compare_companies',
      title: 'Compare companies side by side',
      description:
        "Compares 2 to 4 companies by domain (domains: 'stripe.com,adyen.com'): each company's detail, then score, rank, every layer and every check side by side, each row with leaders (the domains ahead on it; empty when equal). Use it to say who is ahead and on which checks.",
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: compare.input,
      outputSchema: compare.output,
      call: (args, ctx) => invokeOperation(handlers, compare, args, ctx),
    }),
    defineTool({
      name: 'subscribe_webhook',
      title: 'Subscribe a URL to score changes',
      description:
        'Subscribes an https URL to events of one company (domain) or of every company of a category (category slug): score.changed, grade.changed, check.changed, scan.ended. Deliveries are signed POSTs (Standard Webhooks), retried for 24 hours. The answer holds the subscription id, the management token (Authorization: Bearer, to read, resume or delete it over HTTP) and the signing secret: they are shown once, so keep them. The URL must be public (no private addresses).',
      readOnly: false,
      idempotent: false,
      openWorld: true,
      inputSchema: subscribe.input,
      outputSchema: subscribe.output,
      call: (args, ctx) => invokeOperation(handlers, subscribe, args, ctx),
    }),
    defineTool({
      name: 'get_population_stats',
      title: 'The state of agent readiness (population statistics)',
      description:
        "How the ranked companies (curated, or with community: 'include' also community ones; category narrows to one category slug) do on every check: per check the companies that passed, warned, failed, were not applicable or could not be checked, with shares; the grade distribution; score and layer quartiles; per-category figures; and up to 26 weekly points of each check's pass share and of the grades. Use it to answer questions like 'what share of companies publish llms.txt?' or 'is MCP discovery growing?'; cite methodologyVersion.",
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: stats.input,
      outputSchema: stats.output,
      call: (args, ctx) => invokeOperation(handlers, stats, args, ctx),
    }),
    defineTool({
      name: 'get_dataset_info',
      title: 'The open dataset: where, what, license',
      description:
        "Describes the open per-company dataset of the same population (community, category as for get_population_stats): its CSV and JSON Lines download URLs (streamed; one row per ranked company with its latest scan's score, grade and every check's status), its columns, the number of rows, the methodology and catalog versions and its license (CC BY 4.0). Use it to point a user or a program at the raw data instead of paging search_leaderboard.",
      readOnly: true,
      idempotent: true,
      openWorld: false,
      inputSchema: stats.input,
      outputSchema: datasetSchema,
      async call(args, ctx) {
        const answer = await invokeOperation(handlers, stats, args, ctx);
        return answer.dataset as Record<string, unknown>;
      },
    }),
  ];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
