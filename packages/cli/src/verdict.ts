// The gate's decision: the score against --fail-under, and the run against its baseline (score, grade, checks).
import type { Baseline, CheckChange, GateCheck, GateResult, Grade, ScanOutcome } from './model';

const GRADE_ORDER: readonly Grade[] = ['F', 'D', 'C', 'B', 'A', 'A+'];

export function gradeIsLower(now: Grade, then: Grade): boolean {
  return GRADE_ORDER.indexOf(now) < GRADE_ORDER.indexOf(then);
}

/** Checks whose status differs from the baseline's: the biggest losses first, then other changes, then the biggest gains. */
export function changedChecks(now: readonly GateCheck[], then: readonly GateCheck[]): CheckChange[] {
  const before = new Map(then.map((c) => [c.id, c]));
  const changes: CheckChange[] = [];
  for (const c of now) {
    const b = before.get(c.id);
    before.delete(c.id);
    if (b && b.status === c.status) continue;
    const delta = round(c.earned - (b?.earned ?? 0));
    changes.push({ id: c.id, name: c.name, layer: c.layer, before: b?.status ?? null, after: c.status, delta, direction: directionOf(delta), fix: c.fix });
  }
  for (const b of before.values()) {
    changes.push({ id: b.id, name: b.name, layer: b.layer, before: b.status, after: null, delta: round(-b.earned), direction: directionOf(-b.earned), fix: null });
  }
  const rank = { worse: 0, neutral: 1, better: 2 } as const;
  return changes
    .map((change, i) => ({ change, i }))
    .sort((x, y) => rank[x.change.direction] - rank[y.change.direction] || Math.abs(y.change.delta) - Math.abs(x.change.delta) || x.i - y.i)
    .map((x) => x.change);
}

export function decide(run: ScanOutcome, baseline: Baseline | null, o: { failUnder: number | null; failOnGradeDrop: boolean; failOnCheckDrop?: boolean; maxDrop: number }): GateResult {
  const score = run.score ?? 0;
  const failures: string[] = [];
  if (o.failUnder !== null && score < o.failUnder) failures.push(`The score ${score} is below the threshold ${o.failUnder}.`);
  if (baseline) {
    if (baseline.score - score > o.maxDrop) {
      const allowed = o.maxDrop > 0 ? `, more than the ${o.maxDrop} allowed` : '';
      failures.push(`The score fell from ${baseline.score} to ${score} against the baseline (${baseline.source})${allowed}.`);
    }
    if (o.failOnGradeDrop && run.grade && gradeIsLower(run.grade, baseline.grade)) {
      failures.push(`The grade fell from ${baseline.grade} to ${run.grade}.`);
    }
  }
  const changes = baseline ? changedChecks(run.checks, baseline.checks) : [];
  const worse = changes.filter((c) => c.direction === 'worse');
  if (baseline && o.failOnCheckDrop && worse.length > 0) {
    failures.push(`${worse.length} check${worse.length === 1 ? '' : 's'} earned fewer points than in the baseline: ${worse.map((c) => c.id).join(', ')}.`);
  }
  const { checks: _checks, ...baselineSummary } = baseline ?? { checks: [] };
  return {
    tool: 'arl',
    formatVersion: 1,
    ...run,
    failUnder: o.failUnder,
    failOnGradeDrop: o.failOnGradeDrop,
    failOnCheckDrop: o.failOnCheckDrop === true,
    maxDrop: o.maxDrop,
    baseline: baseline ? (baselineSummary as GateResult['baseline']) : null,
    delta: baseline ? score - baseline.score : null,
    changes,
    verdict: { passed: failures.length === 0, failures },
    toFix: run.checks.filter((c) => c.status === 'failed' || c.status === 'warning'),
  };
}

function directionOf(delta: number): CheckChange['direction'] {
  return delta < 0 ? 'worse' : delta > 0 ? 'better' : 'neutral';
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
