// Opaque keyset cursors: the sort key of the last entry served, bound to the query that produced it and signed,
// so a cursor can neither be forged nor replayed against another query.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SortTuple } from './ranking';

export interface CursorQuery {
  sort: string;
  order: string;
  q: string | null;
  category: string | null;
  population: string;
}

interface Payload {
  v: 1;
  f: string;
  k: SortTuple;
}

export class InvalidCursorError extends Error {}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(query: CursorQuery, key: SortTuple): string {
    const body = Buffer.from(JSON.stringify({ v: 1, f: fingerprint(query), k: key } satisfies Payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(cursor: string, query: CursorQuery, expectedLength: number): SortTuple {
    const [body, signature, ...rest] = cursor.split('.');
    if (!body || !signature || rest.length > 0) throw new InvalidCursorError('The cursor is malformed.');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new InvalidCursorError('The cursor was not issued by this service or has been altered.');
    }
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
    } catch {
      throw new InvalidCursorError('The cursor is malformed.');
    }
    if (payload.v !== 1 || !Array.isArray(payload.k) || payload.k.length !== expectedLength) {
      throw new InvalidCursorError('The cursor is malformed.');
    }
    if (payload.f !== fingerprint(query)) {
      throw new InvalidCursorError('The cursor belongs to another query (filters, sort or order differ).');
    }
    if (!payload.k.every((v) => typeof v === 'string' || typeof v === 'number')) throw new InvalidCursorError('The cursor is malformed.');
    return payload.k;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}

// A page's decode and its next cursor's encode each need the query's fingerprint, and pages of one query share it:
// remembered per query text (an HMAC costs ~4 µs), the memory cleared whole when it holds too many searches.
const fingerprints = new Map<string, string>();
const FINGERPRINTS_KEPT = 4096;

function fingerprint(q: CursorQuery): string {
  const text = JSON.stringify([q.sort, q.order, q.q, q.category, q.population]);
  let value = fingerprints.get(text);
  if (value === undefined) {
    value = createHmac('sha256', 'query').update(text).digest('base64url').slice(0, 12);
    if (fingerprints.size >= FINGERPRINTS_KEPT) fingerprints.clear();
    fingerprints.set(text, value);
  }
  return value;
}
