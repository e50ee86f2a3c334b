// The decision rules and the comment's escaping, fed plain results (the binary end to end is tested against the
// real service in apps/server/test/arl-cli.test.ts).
import { formatMarkdown } from '../src/format/markdown';
import type { Baseline, GateCheck, ScanOutcome } from '../src/model';
import { changedChecks, decide } from '../src/verdict';

const check = (id: string, status: GateCheck['status'], earned: number, fix: string | null = null): GateCheck => ({
  id, name: `Check ${id}`, layer: 'discovery', status, earned, points: 10, fix,
});
const run = (score: number, grade: ScanOutcome['grade'], checks: GateCheck[]): ScanOutcome => ({
  url: 'https://example.com/', domain: 'example.com', mode: 'local', scanId: null, reportUrl: null, scannedAt: '2026-11-26T10:00:00.000Z',
  ending: 'finished', cause: 'The scan finished and was scored.', score, grade, checks,
});
const baseline = (score: number, grade: Baseline['grade'], checks: GateCheck[]): Baseline => ({
  source: 'base.json', domain: 'example.com', scannedAt: '2026-11-20T10:00:00.000Z', score, grade, checks,
});

test('changed checks: losses first (biggest first), then same-points changes, then gains; checks gone and new count', () => {
  const then = [check('a', 'passed', 10), check('b', 'passed', 10), check('c', 'failed', 0), check('d', 'warning', 5), check('gone', 'passed', 3)];
  const now = [check('a', 'passed', 10), check('b', 'warning', 5), check('c', 'passed', 10), check('d', 'failed', 0, 'Do d.'), check('new', 'not_applicable', 0)];
  expect(changedChecks(now, then).map((c) => [c.id, c.before, c.after, c.delta, c.direction])).toEqual([
    ['b', 'passed', 'warning', -5, 'worse'],
    ['d', 'warning', 'failed', -5, 'worse'],
    ['gone', 'passed', null, -3, 'worse'],
    ['new', null, 'not_applicable', 0, 'neutral'],
    ['c', 'failed', 'passed', 10, 'better'],
  ]);
});

test.each([
  // [score, grade, baseline score, baseline grade, failUnder, maxDrop, gradeDrop, failures]
  [80, 'B', null, null, 80, 0, false, 0],
  [79, 'C', null, null, 80, 0, false, 1],
  [80, 'B', 81, 'B', null, 0, false, 1],
  [80, 'B', 81, 'B', null, 1, false, 0],
  [80, 'B', 90, 'A', null, 10, true, 1],
  [70, 'C', 90, 'A', 75, 5, true, 3],
  [95, 'A', 90, 'A', 75, 0, true, 0],
] as const)('score %i (%s), baseline %p (%p), threshold %p, max drop %p, grade drop %p: %p failures', (score, grade, bScore, bGrade, failUnder, maxDrop, gradeDrop, failures) => {
  const result = decide(run(score, grade, []), bScore === null ? null : baseline(bScore, bGrade!, []), { failUnder, maxDrop, failOnGradeDrop: gradeDrop });
  expect(result.verdict.failures).toHaveLength(failures);
  expect(result.verdict.passed).toBe(failures === 0);
  expect(result.delta).toBe(bScore === null ? null : score - bScore);
});

test('the comment keeps table cells on one line and never renders a fix as HTML', () => {
  const fix = 'Serve <script>alert(1)</script> | or\nnot';
  const md = formatMarkdown(decide(run(50, 'D', [check('x', 'failed', 0, fix)]), baseline(60, 'C', [check('x', 'passed', 10)]), { failUnder: null, maxDrop: 0, failOnGradeDrop: false }));
  expect(md).toContain('Serve &lt;script&gt;alert(1)&lt;/script&gt; \\| or not |');
  expect(md).not.toContain('<script>');
  expect(md).toContain('| change | **−10** | C → D | |');
});

test('--fail-on-check-drop fails on a check that lost points even when the (capped) score did not move', () => {
  const then = [check('a', 'passed', 10), check('b', 'passed', 10)];
  const now = [check('a', 'failed', 0, 'Do a.'), check('b', 'passed', 10)];
  expect(decide(run(100, 'A+', now), baseline(100, 'A+', then), { failUnder: null, maxDrop: 0, failOnGradeDrop: false }).verdict.passed).toBe(true);
  const strict = decide(run(100, 'A+', now), baseline(100, 'A+', then), { failUnder: null, maxDrop: 0, failOnGradeDrop: false, failOnCheckDrop: true });
  expect(strict.verdict).toEqual({ passed: false, failures: ['1 check earned fewer points than in the baseline: a.'] });
});
