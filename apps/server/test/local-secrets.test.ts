// The signing keys default to random values kept in DATA_DIR outside production (never a constant of the source),
// stay required in production, and anything signed with the constants earlier versions published is refused.
import { createHmac, generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';
import { InviteTokens } from '../src/feedback/invite-token';
import { resolveSecrets, SECRETS_FILE } from '../src/local-secrets';
import { insertProject } from './feedback-fixtures';
import { insertCompany } from './support/fixtures';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';

// The development defaults earlier versions shipped in config.ts: anyone could sign with them.
const OLD_CURSOR_CONSTANT = 'dev-cursor-secret-change-me';
const OLD_INVITE_CONSTANT = 'dev-invite-secret-change-me';

const SIGNING_PEM = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'arl-secrets-'));

describe('configuration', () => {
  test('production still requires both keys', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' });
    } catch (err) {
      expect((err as Error).message).toMatch(/CURSOR_SECRET must be set/);
      expect((err as Error).message).toMatch(/FEEDBACK_INVITE_SECRET must be set/);
    }
  });

  test('outside production the keys are generated once per DATA_DIR, private to the owner, and kept', () => {
    const dir = tempDir();
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = resolveSecrets(config);
      const again = resolveSecrets(loadConfig({ DATA_DIR: dir }));
      expect(again).toEqual(first);
      expect(first.cursor).not.toBe(first.invite);
      for (const value of [first.cursor, first.invite]) {
        expect(value.length).toBeGreaterThanOrEqual(32);
        expect([OLD_CURSOR_CONSTANT, OLD_INVITE_CONSTANT]).not.toContain(value);
      }
      expect(fs.statSync(path.join(dir, SECRETS_FILE)).mode & 0o077).toBe(0);
      const other = tempDir();
      try {
        expect(resolveSecrets(loadConfig({ DATA_DIR: other })).cursor).not.toBe(first.cursor);
      } finally {
        fs.rmSync(other, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('keys set in the environment win and nothing is written', () => {
    const dir = tempDir();
    try {
      const secrets = resolveSecrets(loadConfig({ DATA_DIR: dir, CURSOR_SECRET: 'c'.repeat(20), FEEDBACK_INVITE_SECRET: 'i'.repeat(20), SCANNER_SIGNING_KEY: SIGNING_PEM }));
      expect(secrets).toEqual({ cursor: 'c'.repeat(20), invite: 'i'.repeat(20), scannerSigningKey: SIGNING_PEM.trim() });
      expect(fs.existsSync(path.join(dir, SECRETS_FILE))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the scanner signing key: generated once beside the others, added to an older secrets.json, unset in production means unsigned', () => {
    const dir = tempDir();
    try {
      const first = resolveSecrets(loadConfig({ DATA_DIR: dir }));
      expect(first.scannerSigningKey).toMatchObject({ kty: 'OKP', crv: 'Ed25519', d: expect.any(String), x: expect.any(String) });
      expect(resolveSecrets(loadConfig({ DATA_DIR: dir })).scannerSigningKey).toEqual(first.scannerSigningKey);
      // A file written before scans were signed gains a key, and keeps its other keys.
      const file = path.join(dir, SECRETS_FILE);
      const { scannerSigningKey: _dropped, ...older } = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify(older), { mode: 0o600 });
      const upgraded = resolveSecrets(loadConfig({ DATA_DIR: dir }));
      expect(upgraded.cursor).toBe(first.cursor);
      expect(upgraded.scannerSigningKey).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
      expect(upgraded.scannerSigningKey).not.toEqual(first.scannerSigningKey);
      expect(resolveSecrets(loadConfig({ DATA_DIR: dir })).scannerSigningKey).toEqual(upgraded.scannerSigningKey);
      expect(fs.statSync(file).mode & 0o077).toBe(0);
      const production = { NODE_ENV: 'production', DATA_DIR: dir, CURSOR_SECRET: 'c'.repeat(20), FEEDBACK_INVITE_SECRET: 'i'.repeat(20) };
      expect(resolveSecrets(loadConfig(production)).scannerSigningKey).toBeNull();
      expect(() => loadConfig({ ...production, SCANNER_SIGNING_KEY: 'not a key' })).toThrow(/SCANNER_SIGNING_KEY: The scanner signing key is neither/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a server started without the keys', () => {
  let t: TestServer;
  let signedProject: string;
  beforeAll(async () => {
    t = await startTestServer();
    for (const [i, score] of [90, 80, 70].entries()) await insertCompany(t.runtime.db, { name: `Secret Co ${i}`, domain: `secret${i}.example`, score });
    signedProject = await insertProject(t.runtime.db, { slug: 'signed-secrets', signedOnly: true });
  });
  afterAll(() => t.close());

  test('uses the keys kept in its DATA_DIR', () => {
    expect(t.runtime.secrets).toEqual(resolveSecrets(loadConfig({ DATA_DIR: t.dataDir })));
  });

  test('refuses a cursor forged with the old published constant', async () => {
    const { data } = await t.client.GET('/v1/leaderboard', { params: { query: { limit: 1 } } });
    const [body] = data!.nextCursor!.split('.');
    const forged = `${body}.${createHmac('sha256', OLD_CURSOR_CONSTANT).update(body).digest('base64url').slice(0, 22)}`;
    const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard?limit=1&cursor=${forged}`);
    expectErrorBody({ status: res.status, headers: { 'x-request-id': res.headers.get('x-request-id') ?? '' }, body: await res.json() }, 400, 'invalid_cursor');
    // The genuine cursor still works.
    expect((await fetch(`${t.leaderboardUrl}/v1/leaderboard?limit=1&cursor=${data!.nextCursor}`)).status).toBe(200);
  });

  test('refuses an invitation forged with the old published constant', async () => {
    const invite = await t.runtime.db.prisma.feedbackInvite.create({ data: { projectId: signedProject, expiresAt: new Date(Date.now() + 3_600_000) } });
    const forged = new InviteTokens(OLD_INVITE_CONSTANT).issue(invite.id, signedProject);
    const { response, error } = await t.feedback.POST('/v1/feedback/{slug}/reports', {
      params: { path: { slug: 'signed-secrets' } },
      body: { observation: 'Tried the forged invitation.', outcome: 'blocked', invite: forged },
    });
    expect({ status: response.status, code: error?.code }).toEqual({ status: 403, code: 'invite_invalid' });
    const genuine = new InviteTokens(t.runtime.secrets.invite).issue(invite.id, signedProject);
    const ok = await t.feedback.POST('/v1/feedback/{slug}/reports', {
      params: { path: { slug: 'signed-secrets' } },
      body: { observation: 'Tried the genuine invitation.', outcome: 'succeeded', invite: genuine },
    });
    expect(ok.response.status).toBe(201);
  });
});
