// express-openapi-validator 5.6 finds a request's operation by compiling path-to-regexp for every path of the
// document, on every request (lookupRoute in its middlewares/openapi.metadata.js): with the leaderboard host's ~60
// paths that was a quarter of the CPU of a read that missed the response cache. Upstream has the fix open
// (cdimascio/express-openapi-validator pull request 1217, "perf: cache route matchers"); until a release has it,
// the compiled matcher of each (path, options) is kept here. pathToRegexp is a pure function of its arguments and
// its regular expressions carry no `g` or `y` flag, so a kept one answers exactly as a fresh one would.
//
// The validator reads `pathToRegexp` from the module's exports at each call, so replacing that export (once, before
// the first request) is all it takes; Express's own router compiles its routes once and is not concerned.
import * as path from 'node:path';

type PathToRegexp = (path: unknown, options?: unknown) => { regexp: RegExp; keys: unknown[] };

/** How many distinct (path, options) pairs are kept: far more than both documents' paths, so a bound never hit. */
const MAX_KEPT = 4096;
const KEPT = Symbol.for('arl.route-matchers.kept');

/** The path-to-regexp module express-openapi-validator itself loads (its own copy if it has one). */
function validatorsPathToRegexp(): Record<string, unknown> {
  // Through this module's own require (not createRequire), so a test runner's module registry is the one patched.
  const validator = path.dirname(require.resolve('express-openapi-validator'));
  return require(require.resolve('path-to-regexp', { paths: [validator] })) as Record<string, unknown>;
}

/** Keeps the validator's compiled route matchers; idempotent. Returns how many compilations ran (tests read it). */
export function keepRouteMatchers(): { compiled: () => number } {
  const module = validatorsPathToRegexp();
  const current = module.pathToRegexp as PathToRegexp & { [KEPT]?: { compiled: () => number } };
  if (current[KEPT]) return current[KEPT];
  const compile = current;
  const kept = new Map<string, ReturnType<PathToRegexp>>();
  let compiled = 0;
  const keeping = ((path: unknown, options?: unknown) => {
    const key = keyOf(path, options);
    // Only what the validator passes (a string path, options of plain values) is kept; anything else compiles as before.
    if (key === null) return compile(path, options);
    let matcher = kept.get(key);
    if (matcher === undefined) {
      compiled++;
      matcher = compile(path, options);
      if (kept.size < MAX_KEPT) kept.set(key, matcher);
    }
    return matcher;
  }) as PathToRegexp & { [KEPT]?: { compiled: () => number } };
  keeping[KEPT] = { compiled: () => compiled };
  module.pathToRegexp = keeping;
  return keeping[KEPT];
}

/** The options' names and plain values, then the path; null when any value is not a plain one. */
function keyOf(path: unknown, options: unknown): string | null {
  if (typeof path !== 'string') return null;
  if (options === undefined) return ` ${path}`;
  if (typeof options !== 'object' || options === null) return null;
  let key = '';
  for (const name in options) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && value !== null && typeof value === 'object') return null;
    if (typeof value === 'function') return null;
    key += `${name}=${String(value)};`;
  }
  return `${key} ${path}`;
}
