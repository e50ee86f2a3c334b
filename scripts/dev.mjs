#!/usr/bin/env node
// `npm run dev`: the spec reviewer's loop. Builds everything, starts both hosts (`npm start`'s entry point), then
// watches openapi/*.yaml and the sources: on a save it lints the documents (when they changed), rebuilds what depends
// on the change through turbo (types, client, documents and reference pages, server) and restarts the hosts. A YAML,
// lint or compile error is printed (with its file and line) and the last good server keeps running.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { watch } from 'chokidar';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const WATCHED = [
  'openapi',
  'redocly.yaml',
  'prisma/schema.prisma',
  'prisma/migrations',
  'packages/contract/src',
  'packages/contract/scripts',
  'packages/client/src',
  'packages/db/src',
  'packages/scanner/src',
  'packages/journeys/src',
  'apps/server/src',
];
const IGNORED = /(?:^|\/)(?:generated|node_modules|dist)(?:\/|$)|\.turbo|~$|\.swp$/;
const DEBOUNCE_MS = 150;
const STOP_TIMEOUT_MS = 15_000;

const say = (text) => process.stdout.write(`\x1b[36m[dev]\x1b[0m ${text}\n`);

const working = new Set();

/** Runs a command, collecting its output; resolves with the exit code and the output. */
function run(command, commandArgs, cwd = root) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd, env: { ...process.env, FORCE_COLOR: '1' } });
    working.add(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      working.delete(child);
      resolve({ code: code ?? 1, output });
    });
  });
}

const npmRun = (workspace, script) => {
  const npmCli = process.env.npm_execpath; // set when started by `npm run dev`
  const npmArgs = ['run', script, '--silent'];
  return npmCli ? run(process.execPath, [npmCli, ...npmArgs], path.join(root, workspace)) : run('npm', npmArgs, path.join(root, workspace));
};
const tsc = (workspace, config) => run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', config], path.join(root, workspace));

// Redocly prints a Node-version banner on every run; the reviewer wants the findings only.
const withoutBanner = (text) => text.split('\n').filter((l) => !/[║╔╚]/.test(l) && !/npm warn/.test(l)).join('\n').trim();

async function lint() {
  const { code, output } = await run(process.execPath, [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint']);
  if (code !== 0) say(`the OpenAPI documents do not pass the lint:\n${withoutBanner(output)}`);
  return code === 0;
}

/** Anything: turbo rebuilds what the change touches (and replays the rest from its cache). */
async function build() {
  const { code, output } = await run(process.execPath, [
    path.join(root, 'node_modules/turbo/bin/turbo'), 'run', 'build', '--filter=@arl/server...', '--output-logs=errors-only',
  ]);
  if (code !== 0) say(`the build failed:\n${withoutBanner(output)}`);
  return code === 0;
}

/**
 * Only the documents changed: the path that depends on them, in order (turbo would rebuild every package, since
 * openapi/** is one of its global inputs): types, contract (with documents and pages), client, then the server's
 * compile, which checks the handlers against the new types.
 */
async function buildFromSpec() {
  const steps = [
    () => npmRun('packages/contract', 'generate'),
    () => npmRun('packages/contract', 'build'),
    () => npmRun('packages/client', 'build'),
    () => tsc('apps/server', 'tsconfig.build.json'),
  ];
  for (const step of steps) {
    const { code, output } = await step();
    if (code !== 0) {
      say(`the build failed:\n${withoutBanner(output)}`);
      return false;
    }
  }
  return true;
}

let server = null;

function startServer() {
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js'), ...args], { cwd: root, stdio: 'inherit', env: process.env });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  server = { child, exited };
  child.on('exit', (code, signal) => {
    if (server?.child === child && !child.stopping) say(`the server exited (${signal ?? code}); fix the cause and save to start it again`);
  });
}

async function stopServer() {
  if (!server) return;
  const { child, exited } = server;
  server = null;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stopping = true;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

let pending = new Set();
let running = false;
let timer = null;

async function cycle() {
  if (running) return;
  running = true;
  while (pending.size > 0) {
    const changed = [...pending];
    pending = new Set();
    const started = Date.now();
    say(`changed: ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`);
    const specChanged = changed.some((f) => f.startsWith('openapi/') || f === 'redocly.yaml');
    const specOnly = changed.every((f) => f.startsWith('openapi/'));
    if ((specChanged && !(await lint())) || !(specOnly ? await buildFromSpec() : await build())) {
      say(server ? 'keeping the last good server running' : 'no server is running until the build passes');
      continue;
    }
    await stopServer();
    startServer();
    say(`rebuilt and restarted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  running = false;
}

function onChange(file) {
  const rel = path.relative(root, path.resolve(root, file)).split(path.sep).join('/');
  if (IGNORED.test(rel)) return;
  pending.add(rel);
  clearTimeout(timer);
  timer = setTimeout(() => void cycle(), DEBOUNCE_MS);
}

const watcher = watch(WATCHED, { cwd: root, ignoreInitial: true, ignored: (p) => IGNORED.test(p), awaitWriteFinish: { stabilityThreshold: 100, pollInterval: 25 } });
watcher.on('add', onChange).on('change', onChange).on('unlink', onChange);

async function shutdown() {
  say('stopping');
  await watcher.close();
  for (const child of working) child.kill('SIGTERM');
  await stopServer();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

say('building');
if ((await lint()) && (await build())) startServer();
else say('no server is running until the build passes; watching for changes');
say(`watching ${WATCHED.join(', ')}`);
