export type GuardedFetchErrorCode =
  | 'bad_scheme'
  | 'invalid_url'
  | 'blocked_address'
  | 'dns'
  | 'refused'
  | 'tls'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'aborted'
  | 'network'
  /** The answer was a challenge, a bot wall or a rate limit (block-signals.ts), not the server's own. */
  | 'blocked';

/** Every failure of the guarded fetch is one of these, so callers can turn it into data. */
export class GuardedFetchError extends Error {
  readonly code: GuardedFetchErrorCode;
  readonly url: string | undefined;
  /** The HTTP status, when the server had answered before we gave up (e.g. too_large). */
  readonly status: number | undefined;
  constructor(code: GuardedFetchErrorCode, message: string, url?: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.name = 'GuardedFetchError';
    this.code = code;
    this.url = url;
    this.status = options?.status;
  }
}

export function isGuardedFetchError(error: unknown): error is GuardedFetchError {
  return error instanceof GuardedFetchError;
}

/** Maps Node socket errors to our codes; anything unknown is a generic network failure. */
export function classifyNetworkError(error: unknown, url: string): GuardedFetchError {
  if (error instanceof GuardedFetchError) return error;
  const err = error as NodeJS.ErrnoException & { reason?: string };
  const code = err?.code ?? '';
  const message = err?.message ?? String(error);
  if (code === 'ECONNREFUSED') return new GuardedFetchError('refused', `Connection refused by ${hostOf(url)}`, url, { cause: error });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
    return new GuardedFetchError('dns', `The name ${hostOf(url)} could not be resolved`, url, { cause: error });
  }
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return new GuardedFetchError('timeout', `Timed out talking to ${hostOf(url)}`, url, { cause: error });
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code === 'EPROTO' || /SSL|TLS|certificate/i.test(message) || code.includes('CERT')) {
    return new GuardedFetchError('tls', `TLS handshake with ${hostOf(url)} failed: ${message}`, url, { cause: error });
  }
  return new GuardedFetchError('network', `Network error talking to ${hostOf(url)}: ${message}`, url, { cause: error });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
