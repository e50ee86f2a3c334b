// The signing keys of one deployment. Set in the environment (CURSOR_SECRET, FEEDBACK_INVITE_SECRET; required in
// production), or, outside production, generated at random the first time a process starts on a DATA_DIR and kept
// there (`DATA_DIR/secrets.json`, readable by the owner only), so every later process on that DATA_DIR signs and
// verifies with the same keys and no key is a constant published in the source.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from './config';

export interface Secrets {
  /** Signs leaderboard cursors. */
  cursor: string;
  /** Signs feedback invitation tokens. */
  invite: string;
}

interface StoredSecrets {
  cursorSecret: string;
  inviteSecret: string;
}

export const SECRETS_FILE = 'secrets.json';

export function resolveSecrets(config: Pick<Config, 'dataDir' | 'cursorSecret'> & { feedback: Pick<Config['feedback'], 'inviteSecret'> }): Secrets {
  const fromEnv = { cursor: config.cursorSecret, invite: config.feedback.inviteSecret };
  if (fromEnv.cursor !== null && fromEnv.invite !== null) return { cursor: fromEnv.cursor, invite: fromEnv.invite };
  const stored = readOrCreate(path.join(config.dataDir, SECRETS_FILE));
  return { cursor: fromEnv.cursor ?? stored.cursorSecret, invite: fromEnv.invite ?? stored.inviteSecret };
}

function readOrCreate(file: string): StoredSecrets {
  if (!fs.existsSync(file)) create(file);
  let parsed: Partial<StoredSecrets>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StoredSecrets>;
  } catch {
    throw new Error(`${file} is not readable JSON; delete it to generate new keys (issued cursors and invitations stop working).`);
  }
  if (typeof parsed.cursorSecret !== 'string' || parsed.cursorSecret.length < 16 || typeof parsed.inviteSecret !== 'string' || parsed.inviteSecret.length < 16) {
    throw new Error(`${file} lacks cursorSecret or inviteSecret; delete it to generate new keys.`);
  }
  return { cursorSecret: parsed.cursorSecret, inviteSecret: parsed.inviteSecret };
}

/** Written to a private temporary file and linked into place, so two processes starting together agree on one. */
function create(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secrets: StoredSecrets = { cursorSecret: randomBytes(32).toString('base64url'), inviteSecret: randomBytes(32).toString('base64url') };
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
