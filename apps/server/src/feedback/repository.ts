// Feedback persistence: projects and invites through Prisma, reports through one atomic insert-or-find.
import { randomUUID } from 'node:crypto';
import type { Db } from '@arl/db';

export interface FeedbackProjectRow {
  id: string;
  slug: string;
  name: string;
  invitation: string;
  guidance: string;
  accepting: boolean;
  signedOnly: boolean;
}

export interface FeedbackInviteRow {
  id: string;
  projectId: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface StoredReceipt {
  id: string;
  receivedAt: Date;
  /** false when a report with the same content hash already existed for the project. */
  inserted: boolean;
}

export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  // Raw SQL on the report path: one round trip without the ORM's per-query compilation (it showed in the benchmark).
  async projectBySlug(slug: string): Promise<FeedbackProjectRow | null> {
    const { rows } = await this.db.executeSql(
      'SELECT id, slug, name, invitation, guidance, accepting, signed_only AS "signedOnly" FROM feedback_projects WHERE slug = $1',
      [slug],
    );
    return (rows[0] as FeedbackProjectRow | undefined) ?? null;
  }

  invite(id: string): Promise<FeedbackInviteRow | null> {
    return this.db.prisma.feedbackInvite.findUnique({ where: { id }, select: { id: true, projectId: true, expiresAt: true, revokedAt: true } });
  }

  /**
   * Stores the report unless one with the same content hash exists for the project, and returns the stored one.
   * Atomic under concurrency: the unique index (project_id, content_hash) lets exactly one insert win; the losers'
   * ON CONFLICT DO NOTHING waits for the winner to commit, and the follow-up SELECT (a new statement, so a new
   * snapshot) then sees its row.
   */
  async insertOrFind(projectId: string, contentHash: string, bodyJson: string, receivedAt: Date): Promise<StoredReceipt> {
    const inserted = await this.db.executeSql(
      `INSERT INTO feedback_reports (id, project_id, content_hash, body, received_at) VALUES ($1, $2, $3, $4::json, $5)
       ON CONFLICT (project_id, content_hash) DO NOTHING RETURNING id, received_at`,
      [randomUUID(), projectId, contentHash, bodyJson, receivedAt],
    );
    if (inserted.rows.length > 0) return { id: inserted.rows[0].id, receivedAt: toDate(inserted.rows[0].received_at), inserted: true };
    const existing = await this.db.executeSql('SELECT id, received_at FROM feedback_reports WHERE project_id = $1 AND content_hash = $2', [projectId, contentHash]);
    if (existing.rows.length === 0) throw new Error('feedback report vanished between insert and select');
    return { id: existing.rows[0].id, receivedAt: toDate(existing.rows[0].received_at), inserted: false };
  }
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}
