// Keeps the leaderboard page's rendered answer per URL and format until the ranking changes, as the response cache
// does for the API's reads: the page shows nothing else (its fresh-start variant, which counts scans, is never kept),
// so a kept page is byte-for-byte what rendering it again would give.
export class PageCache {
  private readonly entries = new Map<string, { version: object; body: string }>();

  constructor(private readonly currentVersion: () => object | null, private readonly maxEntries = 500) {}

  /** The ranking version now; take it before rendering, so a change during the render leaves the page stale. */
  version(): object | null {
    return this.currentVersion();
  }

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    return entry && entry.version === this.currentVersion() ? entry.body : undefined;
  }

  set(key: string, body: string, version: object | null): void {
    if (!version) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { version, body });
  }
}
