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
   *
   * Reports arriving together are written together: calls made in the same turn of the event loop (up to
   * BATCH_MAX) become one multi-row INSERT, so a burst costs one round trip and one commit instead of one each.
   * Atomic under concurrency: the unique index (project_id, content_hash) lets exactly one row win, within a batch
   * or across processes; ON CONFLICT DO NOTHING waits for a concurrent winner to commit, and the follow-up SELECT
   * (a new statement, so a new snapshot) then sees its row. The entry whose generated id came back is the new one.
   */
  insertOrFind(projectId: string, contentHash: string, bodyJson: string, receivedAt: Date): Promise<StoredReceipt> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id: randomUUID(), projectId, contentHash, bodyJson, receivedAt, resolve, reject });
      if (this.pending.length >= BATCH_MAX) this.flush();
      else if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private readonly pending: PendingReport[] = [];

  private flush(): void {
    const batch = this.pending.splice(0, BATCH_MAX);
    if (batch.length === 0) return;
    this.write(batch).catch((err) => batch.forEach((p) => p.reject(err)));
  }

  private async write(batch: PendingReport[]): Promise<void> {
    const values: unknown[] = [];
    const rows = batch.map((p, i) => {
      values.push(p.id, p.projectId, p.contentHash, p.bodyJson, p.receivedAt);
      const n = i * 5;
      return `($${n + 1}::uuid, $${n + 2}::uuid, $${n + 3}, $${n + 4}::json, $${n + 5}::timestamptz)`;
    });
    const inserted = await this.db.executeSql(
      `INSERT INTO feedback_reports (id, project_id, content_hash, body, received_at) VALUES ${rows.join(', ')}
       ON CONFLICT (project_id, content_hash) DO NOTHING RETURNING id, received_at`,
      values,
    );
    const won = new Map<string, Date>(inserted.rows.map((r) => [String(r.id), toDate(r.received_at)]));
    const lost = batch.filter((p) => !won.has(p.id));
    const existing = new Map<string, { id: string; receivedAt: Date }>();
    if (lost.length > 0) {
      const keys: unknown[] = [];
      const pairs = lost.map((p, i) => {
        keys.push(p.projectId, p.contentHash);
        return `($${i * 2 + 1}::uuid, $${i * 2 + 2})`;
      });
      const found = await this.db.executeSql(
        `SELECT id, project_id, content_hash, received_at FROM feedback_reports WHERE (project_id, content_hash) IN (${pairs.join(', ')})`,
        keys,
      );
      for (const r of found.rows) existing.set(`${r.project_id}:${String(r.content_hash).trim()}`, { id: String(r.id), receivedAt: toDate(r.received_at) });
    }
    for (const p of batch) {
      const receivedAt = won.get(p.id);
      if (receivedAt) {
        p.resolve({ id: p.id, receivedAt, inserted: true });
        continue;
      }
      const found = existing.get(`${p.projectId}:${p.contentHash}`);
      if (found) p.resolve({ id: found.id, receivedAt: found.receivedAt, inserted: false });
      else p.reject(new Error('feedback report vanished between insert and select'));
    }
  }
}

interface PendingReport {
  id: string;
  projectId: string;
  contentHash: string;
  bodyJson: string;
  receivedAt: Date;
  resolve(receipt: StoredReceipt): void;
  reject(err: unknown): void;
}

/** At most this many reports per INSERT (5 parameters each, far below PostgreSQL's 65,535). */
const BATCH_MAX = 100;

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}
