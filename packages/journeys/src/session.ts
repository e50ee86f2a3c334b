// The agent's browser: opens pages through the guarded fetch within the journey's budgets, records every step and
// collects the evidence each page shows. Both drivers act only through it, so budgets and records cannot be skipped.
import type { GuardedFetch } from '@arl/scanner';
import { detectEvidence, pathOf } from './evidence';
import type { PageView } from './page/page-view';
import { readPage } from './page/read-page';
import type { TaskDefinition } from './tasks';
import type { JourneyAction, JourneyBudgets, JourneyEvidence, JourneyStep } from './types';

export class BudgetExhausted extends Error {
  constructor(readonly budget: 'steps' | 'time' | 'bytes', message: string) {
    super(message);
    this.name = 'BudgetExhausted';
  }
}

export interface SessionOptions {
  fetch: GuardedFetch;
  task: TaskDefinition;
  startUrl: string;
  budgets: JourneyBudgets;
  /** Aborted by the caller (shutdown) or by the time budget. */
  signal: AbortSignal;
  /** Aborted only by the caller: tells a budget stop from an interruption. */
  callerSignal: AbortSignal;
  userAgent: string;
  clock: () => Date;
  onStep?: (step: JourneyStep, evidence: readonly JourneyEvidence[]) => void | Promise<void>;
}

export class BrowsingSession {
  readonly steps: JourneyStep[] = [];
  readonly pages: PageView[] = [];
  readonly evidence: JourneyEvidence[] = [];
  bytesRead = 0;
  private readonly cache = new Map<string, PageView>();

  constructor(private readonly options: SessionOptions) {}

  get task(): TaskDefinition {
    return this.options.task;
  }

  get startUrl(): string {
    return this.options.startUrl;
  }

  get budgets(): JourneyBudgets {
    return this.options.budgets;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  /** Pages opened so far (each open_url / follow_link is one, repeats included). */
  get stepsTaken(): number {
    return this.steps.filter((s) => s.action !== 'finish').length;
  }

  get stepsLeft(): number {
    return this.options.budgets.maxSteps - this.stepsTaken;
  }

  /** Opens a page as one step. Throws BudgetExhausted when a budget is spent, the caller's abort reason when aborted. */
  async open(url: string, action: Exclude<JourneyAction, 'finish'>): Promise<PageView> {
    this.ensureBudget();
    const key = url.replace(/#.*$/, '');
    let page = this.cache.get(key);
    let seenPrefix = '';
    if (page) {
      seenPrefix = 'again (already read): ';
    } else {
      page = await readPage(this.options.fetch, key, {
        maxBytes: Math.min(this.options.budgets.maxPageBytes, Math.max(0, this.options.budgets.maxBytes - this.bytesRead)),
        signal: this.options.signal,
        userAgent: this.options.userAgent,
      }).catch((err: unknown) => {
        throw this.translateAbort(err);
      });
      this.bytesRead += page.bytes;
      this.cache.set(key, page);
      this.pages.push(page);
      for (const item of detectEvidence(page)) {
        if (this.options.task.kinds.includes(item.kind) && !this.evidence.some((e) => e.kind === item.kind && e.detail === item.detail)) this.evidence.push(item);
      }
    }
    await this.record({ url: key, action, seen: seenPrefix + describe(page, this.evidence), at: this.options.clock().toISOString() });
    return page;
  }

  async finish(summary: string): Promise<void> {
    const last = this.steps[this.steps.length - 1]?.url ?? this.options.startUrl;
    await this.record({ url: last, action: 'finish', seen: summary.slice(0, 500), at: this.options.clock().toISOString() });
  }

  /** Evidence found on a given page (by requested or final URL). */
  evidenceAt(url: string): JourneyEvidence[] {
    const page = this.pageFor(url);
    return page ? this.evidence.filter((e) => e.url === page.finalUrl) : [];
  }

  pageFor(url: string): PageView | undefined {
    const key = url.replace(/#.*$/, '');
    return this.cache.get(key) ?? this.pages.find((p) => p.finalUrl === key);
  }

  /** Throws BudgetExhausted when a budget is spent, the caller's abort reason when aborted; otherwise returns. */
  ensureBudget(): void {
    if (this.options.callerSignal.aborted) throw this.options.callerSignal.reason;
    if (this.stepsLeft <= 0) throw new BudgetExhausted('steps', `the step budget (${this.options.budgets.maxSteps} pages) ran out`);
    if (this.options.signal.aborted) throw new BudgetExhausted('time', `the time budget (${this.options.budgets.timeMs} ms) ran out`);
    if (this.bytesRead >= this.options.budgets.maxBytes) throw new BudgetExhausted('bytes', `the byte budget (${this.options.budgets.maxBytes} bytes) ran out`);
  }

  private translateAbort(err: unknown): unknown {
    if (this.options.callerSignal.aborted) return this.options.callerSignal.reason;
    if (this.options.signal.aborted) return new BudgetExhausted('time', `the time budget (${this.options.budgets.timeMs} ms) ran out`);
    return err;
  }

  private async record(step: JourneyStep): Promise<void> {
    this.steps.push(step);
    try {
      await this.options.onStep?.(step, this.evidence);
    } catch {
      // Progress reporting is best effort: a failed progress write must not end the journey.
    }
  }
}

function describe(page: PageView, evidence: readonly JourneyEvidence[]): string {
  const parts = [page.status === null ? 'no response' : String(page.status)];
  if (page.finalUrl !== page.url) parts.push(`redirected to ${pathOf(page.finalUrl)}`);
  if (page.title) parts.push(JSON.stringify(page.title.slice(0, 80)));
  if (page.access !== 'ok') parts.push(`${page.access.replace('_', '-')}: ${page.accessReason ?? ''}`.trim());
  else if (page.scriptOnly) parts.push('renders only with JavaScript');
  const here = evidence.filter((e) => e.url === page.finalUrl).map((e) => e.kind);
  if (here.length > 0) parts.push(`found ${[...new Set(here)].join(', ')}`);
  else if (page.access === 'ok') parts.push(`${page.links.length} links`);
  return parts.join(' · ').slice(0, 300);
}

export interface DriverContext {
  session: BrowsingSession;
  task: TaskDefinition;
  startUrl: string;
  signal: AbortSignal;
}
