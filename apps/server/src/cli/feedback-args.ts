// The owner CLI's argument parser. An invitation token is base64url, so one in 64 starts with "-", which parseArgs
// reads as an option ("Unknown option '-x'"): such a token could not be revoked by `invite revoke <token>`. An
// argument of the token's exact shape (no option looks like it) is therefore always a positional.
import { parseArgs } from 'node:util';
import { TOKEN as INVITE_TOKEN } from '../feedback/invite-token';
import { UsageError } from './feedback-commands';

const HELD = '\u0000';

export function parseCommand(argv: string[]) {
  const args = argv.map((a) => (INVITE_TOKEN.test(a) && a.startsWith('-') ? `${HELD}${a}` : a));
  try {
    const parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        invitation: { type: 'string' },
        guidance: { type: 'string' },
        accepting: { type: 'string' },
        'signed-only': { type: 'string' },
        expires: { type: 'string' },
        note: { type: 'string' },
        limit: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
      },
    });
    return { ...parsed, positionals: parsed.positionals.map((p) => (p.startsWith(HELD) ? p.slice(HELD.length) : p)) };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
