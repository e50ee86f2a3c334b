// The published shape of @arl/client and @arl/contract: both builds load and agree, the browser entries import
// nothing from Node, the enum lists come from the generated contract, and request ids work without randomUUID.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { leaderboardValues } from '@arl/contract';
import { GRADES, JOURNEY_TASKS, LAYERS, LEADERBOARD_SORTS, randomRequestId, requestIdMiddleware } from '../src';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

test('request ids are UUID v4 outside a secure context too (no randomUUID, or one that throws)', () => {
  const getRandomValues = <T extends Uint8Array>(a: T): T => {
    for (let i = 0; i < a.length; i++) a[i] = (i * 37 + 11) & 0xff;
    return a;
  };
  const insecure = { getRandomValues };
  const refusing = { randomUUID: () => { throw new Error('secure context required'); }, getRandomValues };
  expect(randomRequestId(insecure)).toMatch(UUID_V4);
  expect(randomRequestId(refusing)).toBe(randomRequestId(insecure));
  expect(randomRequestId({})).toMatch(UUID_V4);
  const ids = new Set(Array.from({ length: 1000 }, () => randomRequestId({})));
  expect(ids.size).toBe(1000);
  expect(randomRequestId()).toMatch(UUID_V4);
  expect(requestIdMiddleware).toBeInstanceOf(Function);
});

test('enum lists are the generated contract constants', () => {
  expect(GRADES).toBe(leaderboardValues.gradeValues);
  expect(LAYERS).toEqual(['discovery', 'access', 'usability', 'payments']);
  expect(LEADERBOARD_SORTS).toBe(leaderboardValues.leaderboardSortValues);
  expect(JOURNEY_TASKS).toBe(leaderboardValues.journeyTaskValues);
});

test('ESM and CommonJS builds of both packages load in Node and export the same names', () => {
  const script = `
    const names = (m) => Object.keys(m).filter((k) => k !== 'default' && k !== '__esModule').sort().join(',');
    const out = {};
    for (const spec of ['@arl/client', '@arl/contract', '@arl/contract/enums']) {
      const esm = await import(spec);
      const cjs = require(spec);
      out[spec] = { esm: names(esm), cjs: names(cjs) };
    }
    console.log(JSON.stringify(out));`;
  const run = `const { createRequire } = await import('node:module'); const require = createRequire(${JSON.stringify(path.join(__dirname, 'x.js'))}); ${script}`;
  const result = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', run], { cwd: __dirname, encoding: 'utf8' })) as Record<string, { esm: string; cjs: string }>;
  for (const [spec, { esm, cjs }] of Object.entries(result)) {
    expect({ spec, esm }).toEqual({ spec, esm: cjs });
  }
  expect(result['@arl/client'].esm.split(',')).toEqual(expect.arrayContaining(['createLeaderboardClient', 'createFeedbackClient', 'requestIdMiddleware', 'GRADES', 'scanEventsUrl']));
});

test('browser entries import nothing from Node; the package manifests publish only builds', () => {
  for (const name of ['@arl/client', '@arl/contract']) {
    const dir = packageDir(name);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.files).toEqual(expect.arrayContaining(['dist/cjs', 'dist/esm']));
    expect(manifest.files.some((f: string) => f.startsWith('src') || f === 'dist')).toBe(false);
    expect(manifest.exports['.'].import.types).toMatch(/^\.\/dist\/esm\/.*\.d\.ts$/);
    expect(manifest.exports['.'].require.types).toMatch(/^\.\/dist\/cjs\/.*\.d\.ts$/);
    for (const file of filesUnder(path.join(dir, 'dist/esm')).filter((f) => f.endsWith('.js'))) {
      const code = fs.readFileSync(file, 'utf8');
      expect({ file, nodeImport: /from\s+['"](node:|fs|path|crypto)['"]|require\(/.test(code) }).toEqual({ file, nodeImport: false });
    }
  }
});
