import fc from 'fast-check';
import { CHECK_CATALOG } from '../src/checks/catalog';
import { toResult } from '../src/checks/run-checks';
import { gradeFor, scoreChecks } from '../src/scoring/score';
import { CAPABILITIES, CAPABILITY_POINTS, GRADE_BANDS, LAYER_WEIGHTS, REQUIRED_FAILURE_CAP } from '../src/scoring/weights';
import type { CheckResult, CheckStatus } from '../src/types';

const STATUSES: CheckStatus[] = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'];

function resultsFrom(statuses: CheckStatus[]): CheckResult[] {
  return CHECK_CATALOG.map((check, i) => toResult(check, { status: statuses[i], evidence: { detail: 'x' } }));
}

const statusesArb = fc.array(fc.constantFrom(...STATUSES), { minLength: CHECK_CATALOG.length, maxLength: CHECK_CATALOG.length });
const RANK: Record<CheckStatus, number> = { failed: 0, warning: 1, passed: 2, not_applicable: -1, couldnt_check: -1 };

describe('scoring properties', () => {
  it('score is always an integer in 0..100 (or null when nothing is scorable)', () => {
    fc.assert(
      fc.property(statusesArb, (statuses) => {
        const { score, grade } = scoreChecks(resultsFrom(statuses));
        if (score === null) return grade === null;
        return Number.isInteger(score) && score >= 0 && score <= 100 && grade === gradeFor(score);
      }),
      { numRuns: 500 },
    );
  });

  it('passing one more check never lowers the score', () => {
    fc.assert(
      fc.property(statusesArb, fc.nat(CHECK_CATALOG.length - 1), (statuses, index) => {
        const before = scoreChecks(resultsFrom(statuses)).score ?? 0;
        const improved = [...statuses];
        improved[index] = 'passed';
        const after = scoreChecks(resultsFrom(improved)).score ?? 0;
        return statuses[index] === 'passed' || after >= before;
      }),
      { numRuns: 500 },
    );
  });

  it('improving any scorable check (failed -> warning -> passed) never lowers the score', () => {
    fc.assert(
      fc.property(statusesArb, fc.nat(CHECK_CATALOG.length - 1), (statuses, index) => {
        if (RANK[statuses[index]] < 0 || statuses[index] === 'passed') return true;
        const improved = [...statuses];
        improved[index] = statuses[index] === 'failed' ? 'warning' : 'passed';
        return (scoreChecks(resultsFrom(improved)).score ?? 0) >= (scoreChecks(resultsFrom(statuses)).score ?? 0);
      }),
      { numRuns: 500 },
    );
  });

  it('couldnt_check never changes the score (it counts like not_applicable)', () => {
    fc.assert(
      fc.property(statusesArb, fc.nat(CHECK_CATALOG.length - 1), (statuses, index) => {
        const asNa = [...statuses];
        asNa[index] = 'not_applicable';
        const asCouldnt = [...statuses];
        asCouldnt[index] = 'couldnt_check';
        return scoreChecks(resultsFrom(asNa)).score === scoreChecks(resultsFrom(asCouldnt)).score;
      }),
      { numRuns: 500 },
    );
  });
});

describe('scoring rules', () => {
  const all = (status: CheckStatus): CheckStatus[] => CHECK_CATALOG.map(() => status);

  it('everything passed, bonus included, scores 100 and A+', () => {
    expect(scoreChecks(resultsFrom(all('passed')))).toMatchObject({ score: 100, grade: 'A+' });
  });

  it('without bonus points or capabilities the score stops at 96, so A+ takes bonus or capability points', () => {
    const proving = new Set(CAPABILITIES.map((c) => c.provenBy));
    const statuses = CHECK_CATALOG.map((c) => (c.bonus ? 'failed' : proving.has(c.id) ? 'not_applicable' : 'passed')) as CheckStatus[];
    expect(scoreChecks(resultsFrom(statuses))).toMatchObject({ score: 96, grade: 'A', capabilities: [] });
    const withCapability = statuses.map((s, i) => (CHECK_CATALOG[i].id === 'openapi' ? 'passed' : s));
    expect(scoreChecks(resultsFrom(withCapability))).toMatchObject({ score: 96 + CAPABILITY_POINTS, capabilities: ['api'] });
  });

  it('bonus checks only add, and only on a strong base', () => {
    const weak = CHECK_CATALOG.map((c, i) => (c.bonus ? 'passed' : i % 2 === 0 ? 'failed' : 'passed')) as CheckStatus[];
    const weakNoBonus = CHECK_CATALOG.map((c, i) => (c.bonus ? 'failed' : i % 2 === 0 ? 'failed' : 'passed')) as CheckStatus[];
    expect(scoreChecks(resultsFrom(weak)).score).toBe(scoreChecks(resultsFrom(weakNoBonus)).score);
  });

  it('a failed required check caps the checks\' part at 79; capability points come on top, still at most a B', () => {
    const statuses = CHECK_CATALOG.map((c) => (c.id === 'robots-txt' ? 'failed' : 'passed')) as CheckStatus[];
    const { score, grade, cappedByRequired, capabilities } = scoreChecks(resultsFrom(statuses));
    expect(cappedByRequired).toBe(true);
    expect(capabilities).toHaveLength(CAPABILITIES.length);
    expect(score).toBe(REQUIRED_FAILURE_CAP + CAPABILITY_POINTS * CAPABILITIES.length);
    expect(grade).toBe('B');
  });

  it('warning is half credit', () => {
    const checks = resultsFrom(all('not_applicable'));
    const robots = checks.findIndex((c) => c.id === 'robots-txt');
    checks[robots] = { ...checks[robots], status: 'warning', earned: checks[robots].points / 2 };
    expect(scoreChecks(checks).layers.find((l) => l.id === 'discovery')!.score).toBe(50);
  });

  it('layers with nothing scorable are null and left out of the average', () => {
    const statuses = CHECK_CATALOG.map((c) => (c.layer === 'payments' ? 'not_applicable' : 'passed')) as CheckStatus[];
    const { layers, base } = scoreChecks(resultsFrom(statuses));
    expect(layers.map((l) => l.id)).toEqual(['discovery', 'access', 'usability', 'payments']);
    expect(layers.find((l) => l.id === 'payments')!.score).toBeNull();
    expect(base).toBe(100);
    for (const l of layers) expect(l.weight).toBe(LAYER_WEIGHTS[l.id]);
  });

  it('grade bands', () => {
    expect(GRADE_BANDS.map((b) => b.grade)).toEqual(['A+', 'A', 'B', 'C', 'D', 'F']);
    expect([100, 97, 96, 90, 89, 75, 74, 60, 59, 40, 39, 0].map(gradeFor)).toEqual(['A+', 'A+', 'A', 'A', 'B', 'B', 'C', 'C', 'D', 'D', 'F', 'F']);
  });
});
