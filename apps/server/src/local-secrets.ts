// The signing keys of one deployment. Set in the environment (CURSOR_SECRET, FEEDBACK_INVITE_SECRET; required in
// production), or, outside production, generated at random the first time a process starts on a DATA_DIR and kept
// there (`DATA_DIR/secrets.json`, readable by the owner only), so every later process on that DATA_DIR signs and
// verifies with the same keys and no key is a constant published in the source.
import { randomBytes, type JsonWebKey } from 'node:crypto';
import { generateSigningKey } from '@arl/scanner';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from './config';

export interface Secrets {
  /** Signs leaderboard cursors. */
  cursor: string;
  /** Signs feedback invitation tokens. */
  invite: string;
  /** The scanner's Ed25519 private key (Web Bot Auth), a JWK or PEM; null in production without SCANNER_SIGNING_KEY. */
  scannerSigningKey: string | JsonWebKey | null;
}

interface StoredSecrets {
  cursorSecret: string;
  inviteSecret: string;
  /** Added by a later version: a file without it gains one on the next start (upgradeSigningKey). */
  scannerSigningKey?: JsonWebKey;
}

export const SECRETS_FILE = 'secrets.json';

export function resolveSecrets(
  config: Pick<Config, 'dataDir' | 'cursorSecret' | 'nodeEnv'> & { feedback: Pick<Config['feedback'], 'inviteSecret'>; scan: Pick<Config['scan'], 'signingKey'> },
): Secrets {
  const fromEnv = { cursor: config.cursorSecret, invite: config.feedback.inviteSecret, signing: config.scan.signingKey };
  // Production takes every key from the environment; an unset signing key there means unsigned scans, not a file.
  const signingFromEnv = fromEnv.signing ?? (config.nodeEnv === 'production' ? null : undefined);
  if (fromEnv.cursor !== null && fromEnv.invite !== null && signingFromEnv !== undefined) {
    return { cursor: fromEnv.cursor, invite: fromEnv.invite, scannerSigningKey: signingFromEnv };
  }
  const file = path.join(config.dataDir, SECRETS_FILE);
  const stored = readOrCreate(file);
  return {
    cursor: fromEnv.cursor ?? stored.cursorSecret,
    invite: fromEnv.invite ?? stored.inviteSecret,
    scannerSigningKey: signingFromEnv !== undefined ? signingFromEnv : (stored.scannerSigningKey ?? upgradeSigningKey(file)),
  };
}

/**
 * A secrets.json written before scans were signed gains a signing key. One process writes it (an exclusive lock
 * file); the others wait for it and read the same key, so every process of a deployment signs with one key.
 */
function upgradeSigningKey(file: string): JsonWebKey {
  const lock = `${file}.lock`;
  let fd: number | null = null;
  try {
    fd = fs.openSync(lock, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (fd !== null) {
    try {
      const current = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets;
      if (current.scannerSigningKey) return current.scannerSigningKey;
      const next: StoredSecrets = { ...current, scannerSigningKey: generateSigningKey() };
      const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      fs.writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      fs.renameSync(temporary, file);
      return next.scannerSigningKey!;
    } finally {
      fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
    }
  }
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredSecrets;
    if (current.scannerSigningKey) return current.scannerSigningKey;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  throw new Error(`${lock} was held for 5 s; delete it if no other process is starting on this DATA_DIR.`);
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
  return { cursorSecret: parsed.cursorSecret, inviteSecret: parsed.inviteSecret, scannerSigningKey: parsed.scannerSigningKey };
}

/** Written to a private temporary file and linked into place, so two processes starting together agree on one. */
function create(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secrets: StoredSecrets = {
    cursorSecret: randomBytes(32).toString('base64url'),
    inviteSecret: randomBytes(32).toString('base64url'),
    scannerSigningKey: generateSigningKey(),
  };
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
