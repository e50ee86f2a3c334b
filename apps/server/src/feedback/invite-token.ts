// Invitation tokens for signed-only projects: `<invite id>.<mac>`, both base64url (22 + 1 + 22 = 45 characters,
// within the 64 the contract allows for `invite`). The id names a FeedbackInvite row (which makes the token
// revocable, expiring and bound to its project); the mac is HMAC-SHA256 over the id and the project id with the
// deployment's FEEDBACK_INVITE_SECRET, truncated to 128 bits, so a token cannot be forged or moved to another
// project without the secret, and a guessed id never reaches the database.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 16;
/** An invitation token's shape: base64url of the invite id, a dot, base64url of its MAC. */
export const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class InviteTokens {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('InviteTokens: the secret must be at least 16 characters');
  }

  issue(inviteId: string, projectId: string): string {
    if (!UUID.test(inviteId)) throw new Error('InviteTokens.issue: invite id must be a UUID');
    return `${Buffer.from(inviteId.replace(/-/g, ''), 'hex').toString('base64url')}.${this.mac(inviteId, projectId).toString('base64url')}`;
  }

  /** The invite id a token names, without checking its mac; null when the token is not of our shape. */
  idOf(token: string): string | null {
    const match = TOKEN.exec(token);
    if (!match) return null;
    const bytes = Buffer.from(match[1], 'base64url');
    if (bytes.length !== 16 || bytes.toString('base64url') !== match[1]) return null;
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  /** The invite id when the token is well-formed and signed for this project; null otherwise. */
  verify(token: string, projectId: string): string | null {
    const id = this.idOf(token);
    if (!id) return null;
    // Compared as text, so only the one canonical spelling of the mac is accepted.
    const given = Buffer.from(token.slice(token.indexOf('.') + 1), 'latin1');
    const expected = Buffer.from(this.mac(id, projectId).toString('base64url'), 'latin1');
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private mac(inviteId: string, projectId: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(`arl-feedback-invite:v1:${inviteId.toLowerCase()}:${projectId.toLowerCase()}`)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}
