// Delivery of the transactional outbox: every mail row gets a `mail` job in the transaction that creates it; the
// job sends it and marks it sent. Failures retry with exponential backoff (1 s, 2 s, 4 s, ...); after the last
// attempt the row is marked failed with the error.
import type { Db } from '@arl/db';
import type { JobKind, JobQueue, Tx } from '../jobs/queue';
import type { MailTransport } from './transport';

export const MAIL_JOB = 'mail';

export interface MailJobPayload {
  mailId: string;
}

export function defineMailJob(queue: JobQueue, deps: { db: Db; transport: MailTransport; from: string }): void {
  const kind: JobKind<MailJobPayload> = {
    concurrency: 2,
    maxAttempts: 6,
    timeoutMs: 60_000,
    backoffMs: (attempt) => Math.min(300_000, 1000 * 2 ** (attempt - 1)),
    async run(job) {
      const mail = await deps.db.prisma.mailOutbox.findUnique({ where: { id: job.payload.mailId } });
      if (!mail || mail.status === 'sent') return;
      try {
        await deps.transport.send({ id: mail.id, from: deps.from, to: mail.to, subject: mail.subject, text: mail.text });
      } catch (err) {
        await deps.db.prisma.mailOutbox.update({
          where: { id: mail.id },
          data: { attempts: { increment: 1 }, lastError: String((err as Error)?.message ?? err).slice(0, 500) },
        });
        throw err;
      }
      await deps.db.prisma.mailOutbox.update({
        where: { id: mail.id },
        data: { status: 'sent', sentAt: new Date(), attempts: { increment: 1 }, lastError: null },
      });
    },
    async onGiveUp(job, reason, tx) {
      await tx.mailOutbox.update({ where: { id: job.payload.mailId }, data: { status: 'failed', lastError: reason.slice(0, 500) } });
    },
  };
  queue.define(MAIL_JOB, kind);
}

/** Queues one mail in the caller's transaction (the transactional outbox). */
export async function queueMail(tx: Tx, queue: JobQueue, mail: { scanId: string | null; to: string; subject: string; text: string }): Promise<void> {
  const row = await tx.mailOutbox.create({ data: { scanId: mail.scanId, to: mail.to, subject: mail.subject, text: mail.text }, select: { id: true } });
  await queue.enqueue<MailJobPayload>(MAIL_JOB, { mailId: row.id }, {}, tx);
}
