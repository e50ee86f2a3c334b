// The CI gate end to end: the built `arl` binary in a child process against the real service (both hosts, worker,
// PGlite or PostgreSQL) scanning sandbox personas on loopback, and `--local` against a persona served as
// localhost. Asserts the exit codes (0 passed, 1 failed, 2 could not decide), the PR comment and the GitHub output.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { PERSONAS, startSandbox, type Sandbox } from '@arl/sandbox';
import YAML from 'yaml';
import { runArl } from './support/arl-cli';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
let tmp: string;
beforeAll(async () => {
  t = await startScanTestServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-cli-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const REPO_ROOT = path.resolve(__dirname, '../../..');
const api = () => ['--api', t.leaderboardUrl];

test('a site above the threshold passes (exit 0): progress on stderr, the verdict on stdout', async () => {
  const run = await runArl(['check', t.urlOf('exemplary'), ...api(), '--fail-under', '80']);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^PASSED {2}exemplary-co\.test {2}\d+\/100 \((A\+|A)\)/);
  expect(run.stdout).not.toContain('step ');
  expect(run.stderr).toMatch(/arl: started scan [0-9a-f-]{36} of exemplary-co\.test/);
  expect(run.stderr).toContain('arl: step scoring');
  expect(run.stderr).toContain('arl: step ended');
});

test('below --fail-under fails (exit 1) and says why; the JSON output is a baseline file for later runs', async () => {
  const run = await runArl(['check', t.urlOf('typical-saas'), ...api(), '--fail-under', '90', '--format', 'json']);
  expect(run.code).toBe(1);
  const result = JSON.parse(run.stdout);
  expect(result).toMatchObject({ tool: 'arl', mode: 'api', domain: 'typical-saas.test', failUnder: 90, verdict: { passed: false } });
  expect(result.score).toBeLessThan(90);
  expect(result.verdict.failures).toEqual([`The score ${result.score} is below the threshold 90.`]);
  // The scan is the service's: same score as its report.
  const { data: report } = await t.client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId: result.scanId } } });
  expect(report!.score).toBe(result.score);
  expect(result.toFix.map((c: { id: string }) => c.id)).toEqual(report!.checks.filter((c) => c.status === 'failed' || c.status === 'warning').map((c) => c.id));
});

test('--format markdown against a baseline file: a PR comment with score, grade, delta, changed checks and fixes (exit 1 on a drop)', async () => {
  const baselineRun = await runArl(['check', t.urlOf('exemplary'), ...api(), '--format', 'json']);
  expect(baselineRun.code).toBe(0);
  const baselineFile = path.join(tmp, 'baseline.json');
  fs.writeFileSync(baselineFile, baselineRun.stdout);
  const baseline = JSON.parse(baselineRun.stdout);

  const run = await runArl(['check', t.urlOf('typical-saas'), ...api(), '--baseline', baselineFile, '--format', 'markdown']);
  expect(run.code).toBe(1);
  const now = JSON.parse((await runArl(['check', t.urlOf('typical-saas'), ...api(), '--format', 'json'])).stdout);
  const md = run.stdout;
  expect(md.split('\n')[0]).toBe('<!-- arl-check -->');
  expect(md).toContain(`### ❌ Agent readiness of \`typical-saas.test\`: ${now.score}/100 (${now.grade})`);
  expect(md).toContain(`| baseline (${baselineFile}) | ${baseline.score} | ${baseline.grade} |`);
  expect(md).toContain(`| change | **−${baseline.score - now.score}** | ${baseline.grade} → ${now.grade} | |`);
  expect(md).toContain(`- The score fell from ${baseline.score} to ${now.score} against the baseline (${baselineFile}).`);
  // Every check whose status differs is a row, with its fix when it has one.
  const changed = now.checks.filter((c: { id: string; status: string }) => baseline.checks.find((b: { id: string }) => b.id === c.id)?.status !== c.status);
  expect(changed.length).toBeGreaterThan(0);
  expect(md).toContain(`Checks that changed (${changed.length})`);
  for (const c of changed) expect(md).toContain(`(\`${c.id}\`)`);
  const withFix = changed.find((c: { fix: string | null }) => c.fix !== null);
  expect(md).toContain(withFix.fix.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  expect(md).toContain(`[Full report](${t.leaderboardUrl}/scans/`);
});

test('--format github against a company baseline: ::error annotations, a notice per check to fix, the job summary appended', async () => {
  const summary = path.join(tmp, 'summary.md');
  fs.writeFileSync(summary, '# earlier step\n');
  const run = await runArl(
    ['check', t.urlOf('typical-saas'), ...api(), '--baseline', 'exemplary-co.test', '--fail-on-grade-drop', '--max-drop', '100', '--format', 'github'],
    { GITHUB_STEP_SUMMARY: summary },
  );
  expect(run.code).toBe(1);
  const lines = run.stdout.trim().split('\n');
  // --max-drop 100 tolerates the score; the grade drop alone fails the gate.
  expect(lines[0]).toMatch(/^::error title=Agent readiness of typical-saas\.test::The grade fell from (A\+|A) to [B-F]\.$/);
  expect(lines.filter((l) => l.startsWith('::error title=')).length).toBeGreaterThan(1);
  expect(lines.some((l) => /^::warning title=.+ \([a-z0-9-]+\)::./.test(l))).toBe(true);
  expect(lines.at(-1)).toMatch(/^Agent readiness of typical-saas\.test: \d+\/100 \([A-F+]+\), gate failed\.$/);
  for (const l of lines.slice(0, -1)) expect(l).toMatch(/^::(error|warning|notice) title=[^\n]*::[^\n]+$/);
  const written = fs.readFileSync(summary, 'utf8');
  expect(written.startsWith('# earlier step\n<!-- arl-check -->\n### ❌ Agent readiness of `typical-saas.test`')).toBe(true);
  expect(written).toContain('| baseline (exemplary-co.test on ');
  expect(run.stderr).toContain('arl: job summary written');
});

test('exit 2: a scan that cannot run, a baseline that does not exist, a service that is not there, bad arguments', async () => {
  const failed = await runArl(['check', 'http://no-such-site.test/', ...api()]);
  expect(failed.code).toBe(2);
  expect(failed.stderr).toMatch(/arl: The scan of http:\/\/no-such-site\.test\/ ended failed: /);
  expect(failed.stdout).toBe('');

  const noBaseline = await runArl(['check', t.urlOf('exemplary'), ...api(), '--baseline', 'never-scanned.example']);
  expect(noBaseline.code).toBe(2);
  expect(noBaseline.stderr).toContain(`arl: The baseline company never-scanned.example has no scored scan on ${t.leaderboardUrl}.`);

  const closedPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const unreachable = await runArl(['check', 'https://example.com', '--api', `http://127.0.0.1:${closedPort}`, '--format', 'github']);
  expect(unreachable.code).toBe(2);
  expect(unreachable.stderr).toContain(`arl: The service at http://127.0.0.1:${closedPort} is unreachable (ECONNREFUSED).`);
  expect(unreachable.stdout).toMatch(/^::error title=arl check::The service at http%3A|^::error title=arl check::The service at http:/);

  for (const [args, message] of [
    [['check', 'https://example.com', '--fail-under', '101'], '--fail-under must be from 0 to 100, not 101'],
    [['check', 'https://example.com', '--fail-under', 'high'], '--fail-under must be a whole number from 0 to 100, not "high"'],
    [['check', 'https://example.com', '--frobnicate'], 'Unknown option --frobnicate'],
    [['check', 'ftp://example.com'], '"ftp://example.com" is not an http(s) URL'],
    [['check', 'http://exa mple.com'], '"http://exa mple.com" is not a URL'],
    [['check'], 'No URL given'],
    [['check', 'https://example.com', '--format', 'xml'], '--format must be one of text, json, markdown, github, not "xml"'],
    [['check', 'https://example.com', '--fail-on-grade-drop'], '--fail-on-grade-drop needs --baseline'],
  ] as const) {
    const bad = await runArl([...args]);
    expect({ args, code: bad.code }).toEqual({ args, code: 2 });
    expect(bad.stderr).toContain(`arl: ${message}`);
    expect(bad.stderr).toContain('(see arl --help)');
  }
});

describe('--local: the scanner in process, no service', () => {
  const sites: Sandbox[] = [];
  // A persona as a preview server in the job would serve it: on localhost.
  const serveOnLocalhost = async (name: string) => {
    const persona = PERSONAS.find((p) => p.name === name)!;
    const site = await startSandbox({ personas: [{ ...persona, hostname: 'localhost' }] });
    sites.push(site);
    return site.urlOf(persona.name);
  };
  afterAll(() => Promise.all(sites.map((s) => s.close())));

  test('scans a loopback site with --allow-private; passes and fails by threshold; refuses loopback without it', async () => {
    const url = await serveOnLocalhost('exemplary');
    const pass = await runArl(['check', url, '--local', '--allow-private', '--fail-under', '80', '--format', 'json']);
    expect(pass.code).toBe(0);
    const result = JSON.parse(pass.stdout);
    expect(result).toMatchObject({ mode: 'local', scanId: null, domain: 'localhost', verdict: { passed: true, failures: [] } });
    expect(result.score).toBeGreaterThanOrEqual(80);
    expect(pass.stderr).toContain('arl: step checking');

    const fail = await runArl(['check', await serveOnLocalhost('typical-saas'), '--local', '--allow-private', '--fail-under', '80']);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/^FAILED {2}localhost {2}\d+\/100 \([B-F]\)\n {2}- The score \d+ is below the threshold 80\.\n/);

    // Refused before any scan, with the option that allows it named.
    const refused = await runArl(['check', url, '--local']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^arl: localhost:\d+ is a loopback or private address: --local scans it only with --allow-private /);
  });
});

test('action.yml: its check step, run by bash as the Actions runner runs it, gates against the service and writes the outputs', async () => {
  const action = YAML.parse(fs.readFileSync(path.join(REPO_ROOT, 'action.yml'), 'utf8'));
  expect(action.runs.using).toBe('composite');
  const step = action.runs.steps.find((s: { id?: string }) => s.id === 'check');
  const inputs: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, (v as { default?: string }).default ?? '']));
  Object.assign(inputs, { url: t.urlOf('typical-saas'), 'fail-under': '90', api: t.leaderboardUrl });
  const runnerTemp = fs.mkdtempSync(path.join(tmp, 'runner-'));
  // The runner's expressions, evaluated for this job: inputs, the action's checkout and the runner's temp folder.
  const expand = (v: string) =>
    v.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, name) => inputs[name] ?? '')
      .replace(/\$\{\{\s*github\.action_path\s*\}\}/g, REPO_ROOT)
      .replace(/\$\{\{\s*runner\.temp\s*\}\}/g, runnerTemp);
  const env = Object.fromEntries(Object.entries(step.env as Record<string, string>).map(([k, v]) => [k, expand(v)]));
  const script = path.join(runnerTemp, 'step.sh');
  fs.writeFileSync(script, step.run);
  const output = path.join(runnerTemp, 'output');
  const summary = path.join(runnerTemp, 'summary');
  const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { env: { ...process.env, ...env, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary } }, (error, stdout) =>
      resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout }),
    );
  });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^::error title=Agent readiness of typical-saas\.test::The score \d+ is below the threshold 90\./);
  const commentFile = path.join(runnerTemp, 'arl-comment.md');
  expect(fs.readFileSync(output, 'utf8')).toBe(`comment-file=${commentFile}\n`);
  expect(fs.readFileSync(commentFile, 'utf8')).toMatch(/^<!-- arl-check -->\n### ❌ Agent readiness of `typical-saas\.test`: \d+\/100/);
  expect(fs.readFileSync(summary, 'utf8')).toBe(fs.readFileSync(commentFile, 'utf8') + '\n');
});
