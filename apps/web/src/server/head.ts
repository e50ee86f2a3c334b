// What each page says about itself in <head>: title, description, canonical URL and schema.org JSON-LD.
import type { PageData } from '../shared/page-data';
import { companyHref, leaderboardHref } from '../shared/urls';
import { errorTitle } from '../pages/ErrorPage';
import { TASK_LABELS } from '../shared/format';

export interface Head {
  title: string;
  description: string;
  /** Path (and query) of the canonical URL, made absolute with the public URL. */
  canonicalPath: string;
  jsonLd: Record<string, unknown>[];
}

const SITE = 'Agent-Readiness Leaderboard';

export function headFor(data: PageData, publicUrl: string, path: string): Head {
  const abs = (p: string) => `${publicUrl}${p}`;
  const publisher = { '@type': 'Organization', name: SITE, url: abs('/') };
  switch (data.page) {
    case 'leaderboard': {
      const canonicalPath = leaderboardHref({ ...data.query, cursor: undefined });
      return {
        title: data.query.q || data.query.category ? `Leaderboard: ${[data.query.q, data.query.category].filter(Boolean).join(', ')} · ${SITE}` : `${SITE}: which companies are ready for AI agents`,
        description: `Companies ranked by how ready their websites, APIs and MCP servers are for AI agents: ${data.list.total} ranked, with scores, grades, 7-day movement and the evidence behind every check.`,
        canonicalPath,
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'WebSite',
            name: SITE,
            url: abs('/'),
            description: 'Ranks companies by how ready their web presence is for AI agents, with a public API and methodology.',
            publisher,
            potentialAction: { '@type': 'SearchAction', target: { '@type': 'EntryPoint', urlTemplate: `${abs('/')}?q={search_term_string}` }, 'query-input': 'required name=search_term_string' },
          },
          {
            '@context': 'https://schema.org',
            '@type': 'ItemList',
            name: 'Agent-readiness ranking',
            numberOfItems: data.list.total,
            itemListElement: data.list.items.map((e) => ({
              '@type': 'ListItem',
              position: e.rank,
              item: { '@type': 'Organization', name: e.company.name, url: e.company.website, sameAs: abs(companyHref(e.company.domain)) },
            })),
          },
        ],
      };
    }
    case 'company': {
      const c = data.company;
      return {
        title: c.score !== null ? `${c.name}: ${c.score}/100, grade ${c.grade} · ${SITE}` : `${c.name} (not scored yet) · ${SITE}`,
        description: c.score !== null
          ? `${c.name} (${c.domain}) scores ${c.score}/100 (grade ${c.grade}) for agent-readiness${c.rank ? `, rank ${c.rank} of ${c.rankedCompanies}` : ''}. Every check with its evidence and fix.`
          : `${c.name} (${c.domain}) has not been scored for agent-readiness yet.`,
        canonicalPath: companyHref(c.domain, data.community),
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'Review',
            name: `Agent-readiness of ${c.name}`,
            itemReviewed: { '@type': 'Organization', name: c.name, url: c.website },
            author: publisher,
            ...(c.score !== null ? { reviewRating: { '@type': 'Rating', ratingValue: c.score, bestRating: 100, worstRating: 0 } } : {}),
            ...(c.scannedAt ? { datePublished: c.scannedAt } : {}),
            ...(c.summary ? { reviewBody: c.summary } : {}),
          },
        ],
      };
    }
    case 'scan':
      return {
        title: data.scan ? `Scan of ${data.scan.domain} · ${SITE}` : `Scan a site for agent-readiness · ${SITE}`,
        description: data.scan ? `Progress and result of the agent-readiness scan of ${data.scan.domain}.` : 'Scan a website, an MCP server or an MCP App for agent-readiness and watch every step live.',
        canonicalPath: path,
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebPage', name: data.scan ? `Scan of ${data.scan.domain}` : 'Scan a site', publisher }],
      };
    case 'journey':
      return {
        title: data.journey ? `${TASK_LABELS[data.journey.task]} on ${data.companyName} · ${SITE}` : `Send an agent on ${data.companyName} · ${SITE}`,
        description: `An agent tries a task on ${data.domain} and reports every page it opened, the outcome and the evidence.`,
        canonicalPath: path,
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebPage', name: `Agent journey on ${data.companyName}`, publisher }],
      };
    case 'methodology':
      return {
        title: `Methodology: how the agent-readiness score is computed · ${SITE}`,
        description: `The scoring formula and all ${data.methodology.checks.length} checks of catalog ${data.methodology.catalogVersion}: layers and weights, tiers, caps, bonus, capabilities and grade bands.`,
        canonicalPath: '/methodology',
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'TechArticle', headline: 'How the agent-readiness score is computed', publisher, url: abs('/methodology') }],
      };
    case 'stats': {
      const s = data.stats;
      const csv = s.dataset.formats.find((f) => f.format === 'csv');
      const jsonl = s.dataset.formats.find((f) => f.format === 'jsonl');
      return {
        title: `The state of agent readiness${s.category ? `: ${s.category.name}` : ''} · ${SITE}`,
        description: `How ${s.rankedCompanies} ranked companies do on each agent-readiness check: robots.txt, llms.txt, Markdown negotiation, MCP and A2A cards, Content Signals and more, with weekly trends, grades and an open CC BY 4.0 dataset.`,
        canonicalPath: path,
        jsonLd: [
          {
            '@context': 'https://schema.org',
            '@type': 'Dataset',
            name: 'Agent-readiness scan results per company',
            description: 'One row per ranked company: its latest scan\'s score, grade and the status of every check of the published methodology.',
            url: abs('/stats'),
            license: s.dataset.licenseUrl,
            version: s.methodologyVersion,
            creator: publisher,
            isAccessibleForFree: true,
            distribution: [csv, jsonl].filter(Boolean).map((f) => ({ '@type': 'DataDownload', encodingFormat: f!.mediaType, contentUrl: f!.url })),
          },
        ],
      };
    }
    case 'compare': {
      const names = data.comparison?.companies.map((c) => c.name) ?? [];
      return {
        title: names.length ? `${names.join(' vs ')}: agent-readiness compared · ${SITE}` : `Compare companies · ${SITE}`,
        description: names.length
          ? `${names.join(', ')} side by side: agent-readiness score, grade, rank, layers and every check, with the leader of each.`
          : 'Compare two to four companies on agent-readiness: scores, grades, ranks, layers and every check side by side.',
        canonicalPath: path,
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebPage', name: names.length ? `${names.join(' vs ')}` : 'Compare companies', publisher }],
      };
    }
    case 'error':
      return {
        title: `${errorTitle(data.status)} · ${SITE}`,
        description: data.message,
        canonicalPath: path,
        jsonLd: [],
      };
  }
}
