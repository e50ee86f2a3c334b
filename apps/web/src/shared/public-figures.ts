// Figures other people publish for measures close to some of our checks, and how our definition differs, so a
// reader never compares two numbers that count different things without being told. Quoted as published; each
// note is shown beside our figure (/stats) and in the methodology (/methodology#public-figures).
export interface PublicFigure {
  /** Our check the figure is closest to. */
  checkId: string;
  source: string;
  /** What they measured, with their population and date. */
  figure: string;
  /** How our check's definition and population differ. */
  differs: string;
}

export const PUBLIC_FIGURES: readonly PublicFigure[] = [
  {
    checkId: 'robots-txt',
    source: 'Cloudflare Radar, April 2026',
    figure: '78 % of the top 200,000 domains serve a robots.txt.',
    differs: 'We count a robots.txt that is served and parses (RFC 9309), on the companies we rank, not a popularity list; a file that exists but does not parse fails here, and a blocked fetch is "could not check", never a failure.',
  },
  {
    checkId: 'content-signals',
    source: 'Cloudflare Radar, April 2026',
    figure: '4 % of the top 200,000 domains publish Content Signals.',
    differs: 'We pass Content-Signal lines only when they agree with the robots rules they sit beside; a signal that contradicts its own Disallow lines is a warning.',
  },
  {
    checkId: 'markdown-negotiation',
    source: 'Cloudflare Radar, April 2026',
    figure: '3.9 % of the top 200,000 domains answer Accept: text/markdown with Markdown.',
    differs: 'We sample the home page and up to 3 pages from the sitemap and require real Markdown (not relabelled HTML) with Vary: Accept, or a linked Markdown alternate; Radar looks at one response per domain.',
  },
  {
    checkId: 'llms-txt',
    source: 'HTTP Archive Web Almanac 2025',
    figure: 'A valid llms.txt on 2.1 % of sites.',
    differs: 'The Almanac crawls millions of home pages; we rank companies. Our "valid" follows llmstxt.org as its own parser reads it (an H1, a > summary, H2 sections of links; a preamble before the H1 is at most a warning), and a soft 404 (an HTML page at /llms.txt) is not found.',
  },
  {
    checkId: 'ai-training-bot-policy',
    source: 'HTTP Archive Web Almanac 2025',
    figure: 'GPTBot is named in 4.5 % of robots.txt files.',
    differs: 'Naming one crawler is not our measure: we pass an explicit policy for AI training crawlers (GPTBot, ClaudeBot, CCBot, Google-Extended, ...) by name or by Content-Signal, and count every company, with or without a robots.txt.',
  },
];

export const publicFigureOf = (checkId: string): PublicFigure | undefined => PUBLIC_FIGURES.find((f) => f.checkId === checkId);

/** The checks the stats page leads with, in order (those the running catalog has). */
export const HEADLINE_CHECKS: ReadonlyArray<{ id: string; label: string }> = [
  { id: 'robots-txt', label: 'robots.txt' },
  { id: 'llms-txt', label: 'llms.txt' },
  { id: 'markdown-negotiation', label: 'Markdown negotiation' },
  { id: 'mcp-server-card', label: 'MCP server card (discovery)' },
  { id: 'a2a-agent-card', label: 'A2A agent card' },
  { id: 'content-signals', label: 'Content Signals' },
  { id: 'ai-training-bot-policy', label: 'AI training crawler policy' },
  { id: 'api-catalog', label: 'API catalog (RFC 9727)' },
];
