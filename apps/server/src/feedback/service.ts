// The feedback host's rules: cards, the per-project report schema and page, and accepting a report (rate limits,
// project rules, invitation tokens, repeat detection).
import type { FeedbackSchemas } from '@arl/contract';
import { ApiError, notFound } from '../http/errors';
import type { RateLimiter } from '../http/rate-limit';
import { contentHash } from './canonical';
import type { InviteTokens } from './invite-token';
import { PAGE_CSP, renderCardPage } from './page';
import { reportSchemaDocument, type JsonSchema } from './report-schema';
import type { FeedbackProjectRow, FeedbackRepository } from './repository';

type Card = FeedbackSchemas['FeedbackCard'];
type Report = FeedbackSchemas['FeedbackReport'];
type Receipt = FeedbackSchemas['FeedbackReceipt'];

export interface FeedbackServiceDeps {
  repository: FeedbackRepository;
  tokens: InviteTokens;
  /** FeedbackReport from the contract, references resolved (see report-schema.ts). */
  reportSchema: JsonSchema;
  /** Base URL of the feedback host as callers reach it (FEEDBACK_PUBLIC_URL). */
  publicUrl: string;
  clock: () => Date;
  /** Per client (req.ip). */
  clientLimiter: RateLimiter;
  /** Per project, whoever sends. */
  projectLimiter: RateLimiter;
  /** Reports of a kind the service acts on (disputes: ../disputes). */
  hook?: ReportHook<unknown>;
}

/**
 * A kind of report the service acts on: asked before a report is stored, with the sender's client key (null: not of
 * its kind; an ApiError refuses the report, nothing stored), told after with the receipt, and answering the
 * receipt's message.
 */
export interface ReportHook<T> {
  beforeReport(slug: string, report: Report, client: string): Promise<T | null>;
  afterReport(receipt: { id: string; receivedAt: Date; repeat: boolean }, vetted: T): Promise<string>;
}

export const RECEIPT_MESSAGES = {
  received: 'Thank you: your report was received. Keep the id if you want to refer to it.',
  repeat: 'An identical report was already received for this project; this is its receipt. Nothing new was stored.',
} as const;

// Project rows are read at most once a second per process (unknown slugs too, so a flood of made-up slugs does not
// reach the database): an owner's change (accepting, signed-only) takes effect within a second everywhere.
// Invitations are not cached, so a revocation is immediate.
const PROJECT_CACHE_MS = 1000;
const PROJECT_CACHE_MAX = 10_000;

export class FeedbackService {
  private readonly projects = new Map<string, { row: FeedbackProjectRow | null; until: number }>();

  constructor(private readonly deps: FeedbackServiceDeps) {}

  urls(slug: string) {
    const card = `${this.deps.publicUrl}/v1/feedback/${encodeURIComponent(slug)}`;
    return { card, collection: `${card}/reports`, schema: `${card}/report-schema`, page: `${card}/page` };
  }

  async card(slug: string): Promise<Card> {
    return this.cardOf(await this.project(slug));
  }

  async reportSchema(slug: string): Promise<JsonSchema> {
    return this.schemaOf(await this.project(slug));
  }

  async page(slug: string): Promise<{ html: string; headers: Record<string, string> }> {
    const card = this.cardOf(await this.project(slug));
    return { html: renderCardPage(card, this.urls(slug).card), headers: { 'Content-Security-Policy': PAGE_CSP } };
  }

  async submit(slug: string, report: Report, clientKey: string): Promise<{ status: 200 | 201; receipt: Receipt }> {
    await this.deps.clientLimiter.consume(clientKey);
    const project = await this.project(slug);
    await this.deps.projectLimiter.consume(project.id);
    if (!project.accepting) {
      throw new ApiError(409, 'project_not_accepting', `The feedback project "${project.slug}" is not accepting reports at the moment.`);
    }
    if (project.signedOnly) await this.checkInvite(project, report.invite);
    const hook = this.deps.hook;
    const vetted = hook ? await hook.beforeReport(project.slug, report, clientKey) : null;
    const stored = await this.deps.repository.insertOrFind(project.id, contentHash(report), JSON.stringify(report), this.deps.clock());
    const repeat = !stored.inserted;
    const message = hook && vetted !== null
      ? await hook.afterReport({ id: stored.id, receivedAt: stored.receivedAt, repeat }, vetted)
      : repeat ? RECEIPT_MESSAGES.repeat : RECEIPT_MESSAGES.received;
    return {
      status: stored.inserted ? 201 : 200,
      receipt: { id: stored.id, receivedAt: stored.receivedAt.toISOString(), repeat, message },
    };
  }

  private async checkInvite(project: FeedbackProjectRow, token: string | undefined): Promise<void> {
    if (token === undefined) {
      throw new ApiError(403, 'invite_required', `The feedback project "${project.slug}" accepts only invited reports: put your invitation token in "invite".`);
    }
    const invalid = () =>
      new ApiError(403, 'invite_invalid', `The invitation token is not valid for "${project.slug}" (malformed, expired, revoked or issued for another project).`);
    const id = this.deps.tokens.verify(token, project.id);
    if (!id) throw invalid();
    const invite = await this.deps.repository.invite(id);
    if (!invite || invite.projectId !== project.id || invite.revokedAt !== null || invite.expiresAt.getTime() <= this.deps.clock().getTime()) {
      throw invalid();
    }
  }

  private async project(slug: string): Promise<FeedbackProjectRow> {
    const now = Date.now();
    let entry = this.projects.get(slug);
    if (!entry || entry.until <= now) {
      if (this.projects.size >= PROJECT_CACHE_MAX) this.projects.clear();
      entry = { row: await this.deps.repository.projectBySlug(slug), until: now + PROJECT_CACHE_MS };
      this.projects.set(slug, entry);
    }
    if (!entry.row) throw notFound(`No feedback project "${slug}".`);
    return entry.row;
  }

  private cardOf(project: FeedbackProjectRow): Card {
    const urls = this.urls(project.slug);
    return {
      slug: project.slug,
      name: project.name,
      accepting: project.accepting,
      signedOnly: project.signedOnly,
      invitation: project.invitation,
      guidance: project.guidance,
      pageUrl: urls.page,
      collectionUrl: urls.collection,
      reportSchemaUrl: urls.schema,
      reportSchema: this.schemaOf(project),
    };
  }

  private schemaOf(project: FeedbackProjectRow): JsonSchema {
    return reportSchemaDocument(this.deps.reportSchema, { id: this.urls(project.slug).schema, projectName: project.name, signedOnly: project.signedOnly });
  }
}

