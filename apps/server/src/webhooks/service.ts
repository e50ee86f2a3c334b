// Webhook subscriptions: create (the URL vetted by the scans' rules), read, resume, delete, and the delivery log.
// There are no accounts: whoever holds a subscription's token manages it. Only the token's sha256 is stored, so a
// database leak does not hand out the tokens; the signing secret is stored as is (signing needs it) and is shown
// only in the answer that creates it.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { LeaderboardSchemas } from '@arl/contract';
import type { Db } from '@arl/db';
import { checkScannableUrl, type FetchPolicy } from '@arl/scanner';
import { ApiError, badRequest, notFound } from '../http/errors';
import type { TargetResult } from '../scans/target';
import { webhookNetworkRefusal, webhookUrlRefusal } from './url-rules';

type Subscription = LeaderboardSchemas['WebhookSubscription'];
type Created = LeaderboardSchemas['WebhookSubscriptionCreated'];
type Request = LeaderboardSchemas['WebhookSubscriptionRequest'];
type DeliveryPage = LeaderboardSchemas['WebhookDeliveryPage'];

export interface WebhookServiceDeps {
  db: Db;
  clock: () => Date;
  policy: Partial<FetchPolicy>;
  /** The scans' URL rules (scheme, credentials, web ports unless private networks are allowed). */
  normalize(url: string): TargetResult;
}

interface SubscriptionRow {
  id: string;
  url: string;
  domain: string | null;
  category_slug: string | null;
  events: string[];
  description: string | null;
  status: string;
  paused_reason: string | null;
  paused_at: Date | null;
  created_at: Date;
  token_hash: string;
}

const refused = (message: string) => new ApiError(422, 'webhook_url_refused', message);
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export class WebhookService {
  constructor(private readonly deps: WebhookServiceDeps) {}

  async create(input: Request): Promise<Created> {
    const hasDomain = input.domain !== undefined;
    if (hasDomain === (input.category !== undefined)) {
      throw new ApiError(422, 'invalid_subscription', 'Give exactly one of domain (one company) and category (every company of a category).');
    }
    let categoryId: string | null = null;
    if (input.category !== undefined) {
      const category = await this.deps.db.prisma.category.findUnique({ where: { slug: input.category }, select: { id: true } });
      if (!category) throw notFound(`No category has the slug ${JSON.stringify(input.category)}.`);
      categoryId = category.id;
    }
    const domain = hasDomain ? input.domain!.trim().toLowerCase().replace(/\.$/, '') : null;
    if (domain !== null && !/^[a-z0-9.:_-]+$/.test(domain)) {
      throw new ApiError(422, 'invalid_subscription', 'The domain must be a host name such as stripe.com.');
    }
    // The network check last: a subscription that is wrong anyway costs no DNS lookup. The refusals are worded for
    // webhooks (url-rules.ts); the scans' rules then normalize the URL, and agree (the same rules).
    const allowPrivateNetworks = this.deps.policy.allowPrivateNetworks === true;
    const refusal = webhookUrlRefusal(input.url, { anyPort: allowPrivateNetworks });
    if (refusal) throw refused(refusal);
    const normalized = this.deps.normalize(input.url);
    if (!normalized.ok) throw refused('Webhooks are delivered to absolute http or https URLs only.');
    const check = await checkScannableUrl(normalized.value.url.href, { allowPrivateNetworks, lookup: this.deps.policy.lookup });
    if (!check.ok) throw refused(webhookNetworkRefusal(check, normalized.value.url.hostname));

    const token = `whk_${randomBytes(32).toString('base64url')}`;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const id = randomUUID();
    await this.deps.db.prisma.webhookSubscription.create({
      data: {
        id, url: normalized.value.url.href, domain, categoryId, events: [...new Set(input.events)],
        description: input.description ?? null, secret, tokenHash: hashToken(token), createdAt: this.deps.clock(),
      },
    });
    return { subscription: await this.read(id), token, secret };
  }

  /** The subscription if `token` is its management token; 404 otherwise (an unknown id and a wrong token look alike). */
  async authorized(id: string, token: string | null): Promise<Subscription> {
    const row = await this.row(id);
    if (!row || token === null || !sameHash(row.token_hash, hashToken(token))) {
      throw notFound(`No webhook subscription ${id} for this token.`);
    }
    return toSubscription(row);
  }

  async delete(id: string, token: string | null): Promise<void> {
    await this.authorized(id, token);
    await this.deps.db.prisma.webhookSubscription.delete({ where: { id } });
  }

  async resume(id: string, token: string | null): Promise<Subscription> {
    await this.authorized(id, token);
    await this.deps.db.prisma.webhookSubscription.update({
      where: { id },
      data: { status: 'active', pausedAt: null, pausedReason: null, failingSince: null },
    });
    return this.read(id);
  }

  async deliveries(id: string, token: string | null, page: { limit: number; cursor?: string }): Promise<DeliveryPage> {
    await this.authorized(id, token);
    const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
    const { rows } = await this.deps.db.executeSql(
      `SELECT id, event_type, status, attempts, response_status, last_error, created_at, last_attempt_at, next_attempt_at,
              delivered_at, payload
       FROM webhook_deliveries
       WHERE subscription_id = $1::uuid AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
       ORDER BY created_at DESC, id DESC LIMIT $4`,
      [id, after?.at ?? null, after?.id ?? null, page.limit + 1],
    );
    const items = (rows as Array<Record<string, unknown>>).slice(0, page.limit).map((r) => ({
      id: r.id as string,
      event: r.event_type as LeaderboardSchemas['WebhookEventType'],
      status: r.status as 'pending' | 'delivered' | 'failed',
      attempts: Number(r.attempts),
      responseStatus: r.response_status === null ? null : Number(r.response_status),
      lastError: (r.last_error as string | null) ?? null,
      createdAt: iso(r.created_at as Date)!,
      lastAttemptAt: iso(r.last_attempt_at as Date | null),
      nextAttemptAt: iso(r.next_attempt_at as Date | null),
      deliveredAt: iso(r.delivered_at as Date | null),
      payload: JSON.parse(r.payload as string) as LeaderboardSchemas['WebhookEvent'],
    }));
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null };
  }

  private async read(id: string): Promise<Subscription> {
    const row = await this.row(id);
    if (!row) throw notFound(`No webhook subscription ${id}.`);
    return toSubscription(row);
  }

  private async row(id: string): Promise<SubscriptionRow | undefined> {
    const { rows } = await this.deps.db.executeSql(
      `SELECT s.id, s.url, s.domain, c.slug AS category_slug, s.events, s.description, s.status, s.paused_reason,
              s.paused_at, s.created_at, s.token_hash
       FROM webhook_subscriptions s LEFT JOIN categories c ON c.id = s.category_id WHERE s.id = $1::uuid`,
      [id],
    );
    return rows[0] as SubscriptionRow | undefined;
  }
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    url: row.url,
    domain: row.domain,
    category: row.category_slug,
    events: row.events as Subscription['events'],
    description: row.description,
    status: row.status as Subscription['status'],
    pausedReason: row.paused_reason,
    pausedAt: iso(row.paused_at),
    createdAt: iso(row.created_at)!,
  };
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `Authorization: Bearer <token>` -> token (http/contract-security.ts has already refused a request without one: 401). */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id)) throw badRequest('The cursor is not one this service gave.', 'invalid_cursor');
  return { at, id };
}
