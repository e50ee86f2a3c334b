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
