// The breaking-change gate (npm run contract:diff) on a small two-file contract in a scratch git repository: a
// renamed response field is breaking and fails without a major bump of info.version, passes with one; an optional
// field or a new path is non-breaking and passes without a bump; a clone with no earlier release is skipped, not
// failed. The changelog entry of a version lists what changed since the previous one. The last test runs the real
// root script and checks that .ci/run calls it before the tests.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The gate is plain CommonJS (it runs before any build); typed here by what the tests use.
const { runGate } = require('../scripts/contract-gate/gate') as {
  runGate(options: { root: string; baseRef?: string | null; out?: (line: string) => void }): Promise<number>;
};

const changelog = require('../scripts/contract-gate/changelog') as {
  buildEntry(options: { root: string; docs: string[]; snapshots: unknown; today?: string }): Promise<{ marker: string; text: string }>;
  prepend(existing: string | null, entry: { marker: string; text: string }): string;
};
const { Snapshots } = require('../scripts/contract-gate/snapshot') as { Snapshots: new (root: string) => { dispose(): void } };

const repoRoot = path.resolve(__dirname, '../../..');
const scratch: string[] = [];

const DOCUMENT = `openapi: 3.1.0
info:
  title: Pets
  version: 1.0.0
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - name: id
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: One pet.
          content:
            application/json:
              schema:
                $ref: './components/pets.yaml#/Pet'
`;

// The response schema lives in a component file, as ours do: the gate must read it through the $ref.
const COMPONENTS = `Pet:
  type: object
  additionalProperties: false
  required: [id, name]
  properties:
    id: { type: string }
    name: { type: string, description: What the pet answers to. }
`;

const RENAMED = COMPONENTS.replace('[id, name]', '[id, title]').replace('    name:', '    title:');
const WITH_NICKNAME = `${COMPONENTS}    nickname: { type: string }\n`;
const NEW_PATH = `  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: Every pet.
`;

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Gate Test', '-c', 'user.email=gate@test.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

function commit(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** A scratch repository whose first commit releases the pets contract at `version`. */
function released(version = '1.0.0'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-gate-'));
  scratch.push(dir);
  git(dir, 'init', '-q');
  write(dir, { 'openapi/pets.yaml': DOCUMENT.replace('version: 1.0.0', `version: ${version}`), 'openapi/components/pets.yaml': COMPONENTS });
  commit(dir, 'pets contract');
  return dir;
}

function bump(dir: string, version: string): void {
  const file = path.join(dir, 'openapi/pets.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^  version: .*$/m, `  version: ${version}`));
}

async function gate(dir: string, baseRef?: string): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const code = await runGate({ root: dir, baseRef, out: (line) => lines.push(line) });
  return { code, output: lines.join('\n') };
}

afterAll(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

test('renaming a response field is breaking: it fails without a bump and names the field', async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  const { code, output } = await gate(dir);
  expect(code).toBe(1);
  expect(output).toMatch(/breaking \(1\):\n\s+- GET \/pets\/\{id\} response 200 .*property name: cannot remove response property 'name'/);
  expect(output).toMatch(/non-breaking \(1\):\n\s+- GET \/pets\/\{id\} response 200 application\/json field title: added, now required/);
  expect(output).toContain('FAIL: 1 breaking change and info.version is still 1.0.0; bump info.version to 2.0.0 or higher');
  expect(output).toContain('contract gate: FAILED: openapi/pets.yaml breaks its consumers');
});

test('the same rename passes with a major bump, not with a minor one (npm caret rule, 0.x included)', async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  bump(dir, '1.1.0');
  const minor = await gate(dir);
  expect(minor.code).toBe(1);
  expect(minor.output).toContain('info.version 1.0.0 -> 1.1.0 is a bump ^1.0.0 still accepts');

  bump(dir, '2.0.0');
  const major = await gate(dir);
  expect(major.code).toBe(0);
  expect(major.output).toMatch(/breaking \(1\):\n\s+- .*property name: cannot remove response property 'name'/);
  expect(major.output).toContain('ok: 1 breaking change, allowed by the bump of info.version 1.0.0 -> 2.0.0');

  const zero = released('0.3.0');
  write(zero, { 'openapi/components/pets.yaml': RENAMED });
  bump(zero, '0.3.1');
  expect((await gate(zero)).code).toBe(1);
  bump(zero, '0.4.0');
  expect((await gate(zero)).code).toBe(0);
});

test('adding an optional response field or a new path is non-breaking and needs no bump', async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': WITH_NICKNAME });
  fs.appendFileSync(path.join(dir, 'openapi/pets.yaml'), NEW_PATH);
  const { code, output } = await gate(dir);
  expect(code).toBe(0);
  expect(output).not.toMatch(/^\s+breaking \(/m);
  expect(output).toContain('- GET /pets: added');
  expect(output).toContain('- GET /pets/{id} response 200 application/json field nickname: added');
  expect(output).toContain('ok: no breaking change');
});

test('committed: a bump commit is checked against the release before it; a later rename under the bump fails', async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  bump(dir, '2.0.0');
  commit(dir, 'rename name to title, 2.0.0');
  const bumpCommit = await gate(dir); // clean work tree: HEAD is checked, so HEAD is not its own base
  expect(bumpCommit.code).toBe(0);
  expect(bumpCommit.output).toMatch(/HEAD [0-9a-f]{7,} \(info\.version 2\.0\.0\) against [0-9a-f]{7,} \(info\.version 1\.0\.0, .*added the document at version 1\.0\.0\)/);
  expect(bumpCommit.output).toContain('allowed by the bump of info.version 1.0.0 -> 2.0.0');

  write(dir, { 'openapi/components/pets.yaml': RENAMED.replace(/title/g, 'label') });
  commit(dir, 'rename title to label, still 2.0.0');
  const later = await gate(dir);
  expect(later.code).toBe(1);
  expect(later.output).toMatch(/against [0-9a-f]{7,} \(info\.version 2\.0\.0, .*set info\.version to 2\.0\.0\)/);
  expect(later.output).toContain("cannot remove response property 'title'");

  // A contract-v* tag is a release point too: tagging the rename releases it.
  git(dir, 'tag', 'contract-v2.0.1');
  write(dir, { 'openapi/components/pets.yaml': `${RENAMED.replace(/title/g, 'label')}    nickname: { type: string }\n` });
  const afterTag = await gate(dir);
  expect(afterTag.code).toBe(0);
  expect(afterTag.output).toContain('tagged contract-v2.0.1');
});

test("the gate's baseline: history before the commit adding gate-baseline.json is taken as released, later changes are gated", async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  commit(dir, 'a rename before the gate existed');
  write(dir, { 'packages/contract/gate-baseline.json': '{"why": "test"}\n' });
  commit(dir, 'the gate arrives');
  const arrival = await gate(dir); // HEAD added the file: its parent, with the rename, is the base
  expect(arrival.code).toBe(0);
  expect(arrival.output).toMatch(/against [0-9a-f]{7,} \(info\.version 1\.0\.0, .*the gate's baseline, the parent of [0-9a-f]{7,} which added/);
  expect(arrival.output).toContain('no change');

  write(dir, { 'openapi/components/pets.yaml': RENAMED.replace(/title/g, 'label') });
  const later = await gate(dir);
  expect(later.code).toBe(1);
  expect(later.output).toContain("cannot remove response property 'title'");
});

test('no earlier release in the clone: the gate says so and does not fail', async () => {
  const dir = released();
  const first = await gate(dir);
  expect(first.code).toBe(0);
  expect(first.output).toMatch(/openapi\/pets\.yaml: not compared: HEAD [0-9a-f]+ is the first commit/);

  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  commit(dir, 'rename');
  const shallow = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-gate-shallow-'));
  scratch.push(shallow);
  git(os.tmpdir(), 'clone', '-q', '--depth', '1', `file://${dir}`, shallow);
  const cut = await gate(shallow);
  expect(cut.code).toBe(0);
  expect(cut.output).toContain('not compared: this clone is shallow');
  // --base still compares when the named commit is there.
  expect((await gate(dir, 'HEAD~1')).code).toBe(1);
});

test('the changelog entry of a new version lists what changed since the previous one; the same versions replace it', async () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  bump(dir, '2.0.0');
  commit(dir, 'rename name to title, 2.0.0');
  const snapshots = new Snapshots(dir);
  try {
    const entry = async () => changelog.buildEntry({ root: dir, docs: ['openapi/pets.yaml'], snapshots, today: '2026-11-27' });
    const first = changelog.prepend(null, await entry());
    expect(first).toContain('## pets 2.0.0 (2026-11-27)');
    expect(first).toMatch(/Since 1\.0\.0 \(its last state: [0-9a-f]{7,}, /);
    expect(first).toMatch(/\*\*Breaking\*\* \(1\):\n\n- `GET \/pets\/\{id\} response 200 .*property name`: cannot remove response property 'name'/);
    expect(changelog.prepend(first, await entry())).toBe(first); // same versions: the top entry is replaced

    write(dir, { 'openapi/components/pets.yaml': `${RENAMED}    nickname: { type: string }\n` });
    bump(dir, '2.1.0');
    commit(dir, 'nickname, 2.1.0');
    const second = changelog.prepend(first, await entry());
    expect(second.indexOf('## pets 2.1.0')).toBeLessThan(second.indexOf('## pets 2.0.0'));
    expect(second).toMatch(/## pets 2\.1\.0[\s\S]*Since 2\.0\.0[\s\S]*field nickname`: added[\s\S]*## pets 2\.0\.0/);
    expect(second.match(/^## /gm)).toHaveLength(2);
  } finally {
    snapshots.dispose();
  }
});

test('npm run contract:diff is the gate, and .ci/run runs it before the tests', () => {
  const dir = released();
  write(dir, { 'openapi/components/pets.yaml': RENAMED });
  // The kill only catches a hang: far beyond the run's normal time, and inside the base config's 300 s test deadline.
  const run = spawnSync('npm', ['run', '-s', 'contract:diff', '--', '--root', dir], { cwd: repoRoot, encoding: 'utf8', timeout: 240_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toContain("cannot remove response property 'name'");

  const ci = fs.readFileSync(path.join(repoRoot, '.ci/run'), 'utf8');
  const gateLine = ci.split('\n').findIndex((l) => /^npm run -s contract:diff \|\| status=\$\?$/.test(l));
  const firstTests = ci.split('\n').findIndex((l) => /npm test/.test(l) && !l.trim().startsWith('#') && !l.includes('echo'));
  expect(gateLine).toBeGreaterThan(-1);
  expect(gateLine).toBeLessThan(firstTests);
});
