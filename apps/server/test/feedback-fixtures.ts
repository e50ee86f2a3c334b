// Direct inserts of feedback projects and invites for the feedback tests (the CLI has its own tests).
import type { Db } from '@arl/db';
import { InviteTokens } from '../src/feedback/invite-token';

export interface ProjectFixture {
  slug: string;
  name?: string;
  invitation?: string;
  guidance?: string;
  accepting?: boolean;
  signedOnly?: boolean;
}

export async function insertProject(db: Db, f: ProjectFixture): Promise<string> {
  const row = await db.prisma.feedbackProject.create({
    data: {
      slug: f.slug,
      name: f.name ?? `Project ${f.slug}`,
      invitation: f.invitation ?? 'Tell us how it went.',
      guidance: f.guidance ?? 'Say what you tried and what happened.',
      accepting: f.accepting ?? true,
      signedOnly: f.signedOnly ?? false,
    },
  });
  return row.id;
}

/** Creates an invite row and returns its signed token. */
export async function issueInvite(db: Db, secret: string, projectId: string, expiresAt: Date): Promise<{ id: string; token: string }> {
  const invite = await db.prisma.feedbackInvite.create({ data: { projectId, expiresAt } });
  return { id: invite.id, token: new InviteTokens(secret).issue(invite.id, projectId) };
}
