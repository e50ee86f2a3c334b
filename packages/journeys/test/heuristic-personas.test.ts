import { startSandbox, type Sandbox } from '@arl/sandbox';
import { createHeuristicDriver, JOURNEY_TASKS, runJourney, type JourneyResult, type JourneyTask, type JourneyStep } from '../src';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(async () => {
  await sandbox.close();
});

function run(persona: Parameters<Sandbox['urlOf']>[0], task: JourneyTask, extra: Partial<Parameters<typeof runJourney>[0]> = {}): Promise<JourneyResult> {
  return runJourney({
    task,
    startUrl: sandbox.urlOf(persona),
    // A deadline far beyond a page's normal time: a loaded machine must not turn a page into a timeout.
    fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup, requestTimeoutMs: 60_000 },
    driver: createHeuristicDriver(),
    ...extra,
  });
}

const path = (url: string | undefined): string => new URL(url ?? 'http://x/').pathname;

describe('heuristic agent on the exemplary site', () => {
  // Each task with the evidence that must be named: kind, the page it was found on and what it says.
  const expectations: Array<[JourneyTask, Array<[kind: string, page: string, detail: RegExp]>]> = [
    ['understand_product', [['product_summary', '/llms.txt', /invoicing API and dashboard for small businesses/]]],
    ['find_pricing', [['pricing_page', '/pricing', /Pricing/], ['plan_price', '/pricing', /Pro: 49 USD/], ['plan_price', '/pricing', /\$49 \/ month/]]],
    ['get_started', [['getting_started', '/docs', /create an API key/]]],
    ['api_docs', [['api_reference', '/docs/api', /API reference/], ['openapi_document', '/openapi.json', /Exemplary Co API 1\.4\.0 \(OpenAPI 3\.1\.0, 2 paths\)/]]],
    ['create_account', [['signup_page', '/signup', /Sign up/], ['signup_form', '/signup', /POST \/signup with email, password/]]],
    ['get_support', [['support_page', '/support', /Support/], ['support_channel', '/support', /e-mail support@exemplary-co\.test/]]],
  ];

  test.each(expectations)('%s succeeds with the evidence named', async (task, expected) => {
    const result = await run('exemplary', task);
    expect(result).toMatchObject({ task, driver: 'heuristic', outcome: 'succeeded' });
    for (const [kind, page, detail] of expected) {
      expect(result.evidence.some((e) => e.kind === kind && path(e.url) === page && detail.test(e.detail))).toBe(true);
    }
    expect(result.cause).toMatch(/^Found /);
    // Every step is a page the agent opened (or the closing finish), in order, with a timestamp.
    expect(result.steps[0]).toMatchObject({ action: 'open_url', url: sandbox.urlOf('exemplary') });
    expect(result.steps[result.steps.length - 1].action).toBe('finish');
    for (const step of result.steps) expect(Number.isNaN(Date.parse(step.at))).toBe(false);
    expect(result.steps.length).toBeLessThanOrEqual(13);
    expect(result.bytesRead).toBeGreaterThan(0);
  });

  test('reports only the evidence of its own task', async () => {
    const result = await run('exemplary', 'find_pricing');
    expect(new Set(result.evidence.map((e) => e.kind))).toEqual(new Set(['pricing_page', 'plan_price']));
  });
});

describe('walls', () => {
  test.each(JOURNEY_TASKS)('hostile site: %s is blocked at the door', async (task) => {
    const result = await run('hostile', task);
    expect(result.outcome).toBe('blocked');
    expect(result.cause).toMatch(/refused the agent \(bot challenge \(403\)/);
    expect(result.evidence).toEqual([]);
    // It does not keep knocking: one page, then finish.
    expect(result.steps.map((s) => s.action)).toEqual(['open_url', 'finish']);
  });

  test.each(JOURNEY_TASKS)('sign-in wall: %s reports sign_in_required', async (task) => {
    const result = await run('sign-in-wall', task);
    expect(result.outcome).toBe('sign_in_required');
    expect(result.cause).toMatch(/requires signing in \(redirected to a sign-in page \(\/login/);
    expect(result.steps[0].seen).toMatch(/redirected to \/login/);
  });
});

describe('other sites', () => {
  test('typical SaaS: pricing as text is found', async () => {
    const result = await run('typical-saas', 'find_pricing');
    expect(result.outcome).toBe('succeeded');
    expect(result.evidence).toContainEqual(expect.objectContaining({ kind: 'plan_price', detail: expect.stringMatching(/\$8 per user/) }));
  });

  test('content site: no pricing is a failure that says what was missing', async () => {
    const result = await run('content-site', 'find_pricing');
    expect(result.outcome).toBe('failed');
    expect(result.cause).toMatch(/^No plan price was found after \d+ pages: no promising link was left to follow\.$/);
  });
});

describe('guards and budgets', () => {
  test('no page could be loaded: the journey ends with the network cause, worded as scans word it', async () => {
    const result = await runJourney({
      task: 'find_pricing',
      startUrl: `http://no-such-site.test:${sandbox.port}/`,
      fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup },
      driver: createHeuristicDriver(),
    });
    expect(result.outcome).toBe('failed');
    expect(result.cause).toBe(`The domain no-such-site.test:${sandbox.port} could not be resolved (DNS failure).`);
  });

  test('private addresses are refused unless allowed', async () => {
    const result = await run('exemplary', 'find_pricing', { fetchPolicy: { lookup: sandbox.lookup } });
    expect(result.outcome).toBe('failed');
    expect(result.steps[0].seen).toMatch(/^no response · error: /);
    expect(result.bytesRead).toBe(0);
  });

  test('the step budget stops the agent and is named in the cause', async () => {
    const result = await run('exemplary', 'find_pricing', { budgets: { maxSteps: 2 } });
    expect(result.outcome).toBe('failed');
    expect(result.cause).toMatch(/after 2 pages: the step budget \(2 pages\) ran out/);
    expect(result.steps.filter((s) => s.action !== 'finish')).toHaveLength(2);
  });

  test('the byte budget stops the agent', async () => {
    const result = await run('exemplary', 'find_pricing', { budgets: { maxBytes: 800 } });
    expect(result.outcome).toBe('failed');
    expect(result.cause).toMatch(/byte budget \(800 bytes\) ran out/);
    expect(result.bytesRead).toBeLessThanOrEqual(800);
  });

  test('onStep sees every step as it happens; a failing onStep does not end the journey', async () => {
    const seen: JourneyStep[] = [];
    const result = await run('exemplary', 'create_account', {
      onStep: (step) => {
        seen.push(step);
        throw new Error('progress store down');
      },
    });
    expect(result.outcome).toBe('succeeded');
    expect(seen).toEqual(result.steps);
  });

  test('aborting rejects with the reason (an interruption is not an outcome)', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const pending = run('exemplary', 'get_support', { signal: controller.signal, onStep: () => controller.abort(reason) });
    await expect(pending).rejects.toBe(reason);
  });

  test('an unknown task is a programming error', async () => {
    await expect(run('exemplary', 'buy_everything' as JourneyTask)).rejects.toThrow(/Unknown journey task/);
  });
});
