// The census bench's simulated internet, as data: N sites drawn from a seeded generator (the same seed, the same
// sites), each with its round-trip time, its page sizes and its place in the population mix. No I/O here: the
// servers (internet.ts) answer from these records, and the test checks the proportions.
//
// The mix, from public figures (the sources are the issue's, cited where each figure is used):
// - robots.txt on 78 % of sites (Cloudflare Radar, April 2026, top 200,000 domains);
// - AI crawlers disallowed in robots.txt on 20 % of all sites (within the 78 %), as in the brief; Content
//   Signals (a `Content-Signal:` line) on 4 % (Cloudflare Radar, April 2026);
// - llms.txt on 4 %: between a valid llms.txt on 2.1 % (HTTP Archive, Web Almanac 2025) and the few percent of
//   higher-ranked sites that publish one;
// - markdown for `Accept: text/markdown` on 3.9 % (Cloudflare Radar, April 2026);
// - 2 % dead: the address accepts TCP and never finishes the TLS handshake (a host gone quiet behind its DNS);
// - 3 % behind a WAF that answers every path 403 with a challenge page (no public rate for a declared crawler: an
//   assumption, stated in the bench README);
// - 1 % dripping: the home page's bytes come a few at a time.
// Round trips are log-uniform from 20 to 300 ms (most sites sit on a nearby CDN edge, a few far away: median ~77 ms).
// HTML sizes are log-normal with a median of 30 KB and a 90th percentile of about 150 KB (HTTP Archive, Web Almanac
// 2024 "Page Weight": HTML of about 30 KB at the median; the tail passes 1 MB): sigma = ln(5) / 1.2816 = 1.256, so
// about 0.25 % of home pages are over 1 MB and 0.04 % over the scanner's 2 MiB cap.

/** mulberry32: a small seeded PRNG; numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box-Muller). */
function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export const MIX = {
  robots: 0.78,
  aiBlocked: 0.2,
  contentSignals: 0.04,
  llmsTxt: 0.04,
  markdown: 0.039,
  sitemap: 0.5,
  dead: 0.02,
  waf: 0.03,
  drip: 0.01,
} as const;

export const RTT_MS = { min: 20, max: 300 } as const;
export const HTML_MEDIAN_BYTES = 30 * 1024;
export const HTML_SIGMA = Math.log(5) / 1.2816;
/** A page is never drawn larger than this (the scanner stops at 2 MiB anyway). */
export const HTML_MAX_BYTES = 8 * 1024 * 1024;

export type SiteKind = 'ok' | 'dead' | 'waf' | 'drip';

export interface Site {
  index: number;
  host: string;
  /** The loopback address the worker resolves the host to (many sites share one, as on a host or CDN edge). */
  address: string;
  kind: SiteKind;
  rttMs: number;
  /** Home page bytes; other pages are drawn around it. */
  htmlBytes: number;
  /** Download speed, bytes per ms (2-50 Mbit/s): a page's transfer time is added to its answer. */
  bytesPerMs: number;
  robots: boolean;
  aiBlocked: boolean;
  contentSignals: boolean;
  llmsTxt: boolean;
  markdown: boolean;
  sitemap: boolean;
  /** Internal pages the home page links to. */
  pages: number;
}

export interface PopulationOptions {
  sites: number;
  seed: number;
  /** Sites per loopback address (default 8). */
  sitesPerAddress?: number;
  suffix?: string;
}

export const CENSUS_SUFFIX = 'census.test';

/** The loopback address of slot `i`: 127.77.x.y, away from 127.0.0.1 where the bench's own servers listen. */
export function addressOf(slot: number): string {
  return `127.77.${Math.floor(slot / 250)}.${(slot % 250) + 1}`;
}

export function generatePopulation(o: PopulationOptions): Site[] {
  const random = seededRandom(o.seed);
  const perAddress = o.sitesPerAddress ?? 8;
  const addresses = Math.max(1, Math.ceil(o.sites / perAddress));
  const sites: Site[] = [];
  for (let i = 0; i < o.sites; i += 1) {
    // One draw decides the kind, so the shares are exact in expectation and independent of the other draws.
    const k = random();
    const kind: SiteKind = k < MIX.dead ? 'dead' : k < MIX.dead + MIX.waf ? 'waf' : k < MIX.dead + MIX.waf + MIX.drip ? 'drip' : 'ok';
    const robots = random() < MIX.robots;
    // AI blocking is a share of all sites, drawn among those with a robots.txt.
    const aiBlocked = robots && random() < MIX.aiBlocked / MIX.robots;
    const rttMs = Math.round(RTT_MS.min * Math.pow(RTT_MS.max / RTT_MS.min, random()));
    const htmlBytes = Math.min(HTML_MAX_BYTES, Math.max(512, Math.round(HTML_MEDIAN_BYTES * Math.exp(HTML_SIGMA * normal(random)))));
    const mbit = 2 + random() * 48;
    sites.push({
      index: i,
      host: `site-${i}.${o.suffix ?? CENSUS_SUFFIX}`,
      // Consecutive sites on different addresses: an address hosts every `addresses`-th site.
      address: addressOf(i % addresses),
      kind,
      rttMs,
      htmlBytes,
      bytesPerMs: (mbit * 1_000_000) / 8 / 1000,
      robots,
      aiBlocked,
      contentSignals: robots && random() < MIX.contentSignals / MIX.robots,
      llmsTxt: random() < MIX.llmsTxt,
      markdown: random() < MIX.markdown,
      sitemap: random() < MIX.sitemap,
      pages: 5 + Math.floor(random() * 40),
    });
  }
  return sites;
}

/** The distinct addresses of a population, in slot order. */
export function addressesOf(sites: Site[]): string[] {
  return [...new Set(sites.map((s) => s.address))];
}

/** Shares of a population, for the bench's report and the test. */
export function mixOf(sites: Site[]): Record<string, number> {
  const share = (f: (s: Site) => boolean) => sites.filter(f).length / sites.length;
  const sorted = sites.map((s) => s.htmlBytes).sort((a, b) => a - b);
  return {
    robots: share((s) => s.robots),
    aiBlocked: share((s) => s.aiBlocked),
    contentSignals: share((s) => s.contentSignals),
    llmsTxt: share((s) => s.llmsTxt),
    markdown: share((s) => s.markdown),
    dead: share((s) => s.kind === 'dead'),
    waf: share((s) => s.kind === 'waf'),
    drip: share((s) => s.kind === 'drip'),
    htmlMedianBytes: sorted[Math.floor(sorted.length / 2)],
    htmlP90Bytes: sorted[Math.floor(sorted.length * 0.9)],
    overOneMb: share((s) => s.htmlBytes > 1024 * 1024),
    rttMedianMs: sites.map((s) => s.rttMs).sort((a, b) => a - b)[Math.floor(sites.length / 2)],
  };
}
