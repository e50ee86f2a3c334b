// "The database does not answer" told apart from a bug: an operation that fails because PostgreSQL is restarting,
// failing over or unreachable is a 503 with Retry-After (the client should try again in a moment), not a 500.
// Errors come from three layers that each wrap the one below: pg (a socket error or PostgreSQL's SQLSTATE), the
// Prisma driver adapter (DriverAdapterError with the pg error as its cause) and Prisma Client (P-codes). The whole
// cause chain is looked at.

/** PostgreSQL SQLSTATEs of a server going away or not accepting connections (class 08 and the 57P0x shutdowns). */
const SQLSTATES = /^(08\d{3}|57P01|57P02|57P03|53300)$/;
/** Node's socket errors on a refused, reset or timed-out connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** Prisma's connection errors: cannot reach, timed out, closed, pool timeout. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** What pg and the adapter say when a connection ends under them (they carry no code). */
const MESSAGES = [
  /connection terminated/i,
  /server closed the connection unexpectedly/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /can't reach database server/i,
  /connection is closed|connection closed|not queryable/i,
];

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 6) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; originalCode?: unknown; kind?: unknown; meta?: unknown };
  for (const code of [e.code, e.originalCode]) {
    if (typeof code !== 'string') continue;
    if (SQLSTATES.test(code) || SOCKET_CODES.has(code) || PRISMA_CODES.has(code)) return true;
  }
  if (e.kind === 'DatabaseNotReachable' || e.kind === 'ConnectionClosed' || e.kind === 'SocketTimeout') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.meta, depth + 1);
}
