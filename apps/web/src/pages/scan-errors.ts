// Turns a refused scan into a sentence, with the wait when the server gives one (429, 503 + Retry-After).
export function describeScanError(response: Response, error: { message?: string } | undefined): string {
  const wait = Number(response.headers.get('retry-after'));
  const message = error?.message ?? `HTTP ${response.status}`;
  if (response.status === 429) return `Too many scans from here: please wait ${wait > 0 ? wait : 60} seconds and try again.`;
  if (response.status === 503) return `The scan queue is full: please try again in ${wait > 0 ? wait : 30} seconds.`;
  if (response.status === 422) return `This URL cannot be scanned: ${message}`;
  return `The scan could not be started (${response.status}): ${message}`;
}
