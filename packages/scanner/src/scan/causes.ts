/** Human sentences for failed endings; the scan record shows them to the site owner. */
export function causeForFetchError(code: string, host: string, message: string, timeoutMs: number): string {
  switch (code) {
    case 'dns':
      return `The domain ${host} could not be resolved (DNS failure).`;
    case 'refused':
      return `${host} refused the connection.`;
    case 'tls':
      return `The secure connection (TLS) to ${host} failed.`;
    case 'timeout':
      return `${host} did not answer the home page request within ${Math.round(timeoutMs / 1000)} s.`;
    case 'too_many_redirects':
      return `The home page of ${host} redirects too many times.`;
    case 'blocked_address':
      return `${host} points to a private or reserved network address, which we do not scan.`;
    case 'bad_scheme':
    case 'invalid_url':
      return message;
    case 'too_large':
      return `The home page of ${host} is larger than we accept.`;
    default:
      return `The home page of ${host} could not be fetched: ${message}`;
  }
}

/** The home page's headers arrived, its body did not (a stalled or dripping response, a dropped connection). */
export function causeForUnreadHome(code: string, host: string, timeoutMs: number): string {
  if (code === 'timeout') return `${host} timed out reading the home page: its headers came, but not the whole page within ${Math.round(timeoutMs / 1000)} s.`;
  return `The home page of ${host} could not be read completely (the connection dropped mid-page).`;
}

/** A challenge or a rate limit answered for the site: the scan is not scored, so it is not ranked either. */
export function causeForBlockedHome(host: string, reason: string): string {
  return `The home page of ${host} answered our scanner with ${reason}, so nothing about the site could be checked; the scan is not scored or ranked.`;
}

/** A finished scan of a site that refuses AI agents itself: why its score is what it is. */
export function causeForRefusal(host: string, refusal: string, cap: number): string {
  return `${host} refuses AI agents in its own words and in its answers (${refusal}): a site's own refusal is scored and ranked, with the score held at ${cap}.`;
}
