// express-openapi-validator 5.6 compiled path-to-regexp for every path of the document on every request, a quarter
// of the CPU of a read answered through Express (http/route-matchers.ts). Each (path, options) is now compiled once
// per process: after the first requests, no request compiles a route matcher again, and answers are unchanged.
import * as path from 'node:path';
import request from 'supertest';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

// The very module the validator loads, counted before any app exists.
const validatorDir = path.dirname(require.resolve('express-openapi-validator'));
const pathToRegexpModule = require(require.resolve('path-to-regexp', { paths: [validatorDir] })) as { pathToRegexp: (...args: unknown[]) => unknown };
let compilations = 0;
const original = pathToRegexpModule.pathToRegexp;
pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
  compilations++;
  return original(...args);
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await insertCompany(t.runtime.db, { name: 'Matcher Co', domain: 'matcher.example', score: 70 });
});
afterAll(() => t.close());

// Express-routed reads of both hosts (not the response cache's or the direct reads' paths: those skip the validator).
const leaderboardPaths = ['/v1/leaderboard/categories?x=1', '/v1/leaderboard/companies/matcher.example/history', '/v1/leaderboard/methodology', '/healthz', '/v1/nope'];
const feedbackPaths = ['/v1/feedback/nope/report-schema', '/healthz'];

async function round(): Promise<number[]> {
  const statuses: number[] = [];
  for (const p of leaderboardPaths) statuses.push((await request(t.leaderboardUrl).get(p)).status);
  for (const p of feedbackPaths) statuses.push((await request(t.feedbackUrl).get(p)).status);
  return statuses;
}

test('route matchers are compiled once per process, not on every request', async () => {
  const first = await round();
  const before = compilations;
  expect(before).toBeGreaterThan(0);
  for (let i = 0; i < 5; i++) expect(await round()).toEqual(first);
  // 35 more requests through the validator: the old code compiled every path of the document for each (~60 each).
  expect(compilations - before).toBe(0);
});

test('a kept matcher answers as a fresh one: path parameters, an unknown path, a wrong method', async () => {
  const company = await request(t.leaderboardUrl).get('/v1/leaderboard/companies/matcher.example/history');
  expect(company.status).toBe(200);
  const unknown = await request(t.leaderboardUrl).get('/v1/leaderboard/companies/matcher.example/nothing-here');
  expect(unknown.status).toBe(404);
  expect(unknown.body.code).toBe('route_not_found');
  const wrongMethod = await request(t.leaderboardUrl).delete('/v1/leaderboard/methodology');
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.allow).toContain('GET');
});
