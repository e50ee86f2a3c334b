// The discovery routes of both hosts, rendered once at start-up from the service facts (except the sitemap, which
// lists the companies ranked now).
import type { Request } from 'express';
import { SIGNATURE_DIRECTORY_MEDIA_TYPE } from '@arl/scanner';
import type { Runtime } from '../runtime';
import { mcpIdentity, readerFor, toolsFor, type HostName } from '../mcp/hosts';
import type { HandlerMap } from '../mcp/tool';
import { ardManifest, skillFile, skills, skillsIndex } from './agent-resources';
import { apiCatalog, discoveryLinkHeader, LINKSET_MEDIA_TYPE } from './api-catalog';
import { llmsFullTxt, llmsTxt } from './llms-txt';
import { robotsTxt } from './robots';
import { mcpCatalog, serverCard } from './server-card';
import { hostFacts, serviceFacts, type ServiceFacts } from './service-facts';
import { sitemapXml } from './sitemap';
import { webMcpScript } from './webmcp';
import { notFound } from '../http/errors';

// The tool sets here are read for their names, descriptions and schemas only (documents); the endpoints bind their
// own tool sets to the hosts' handlers.
const METADATA_ONLY: HandlerMap = {};

const cache = new WeakMap<object, ServiceFacts>();

export function serviceFactsFor(config: Runtime['config']): ServiceFacts {
  let facts = cache.get(config);
  if (!facts) {
    const host = (name: HostName, base: string) => hostFacts(readerFor(name), base, { identity: mcpIdentity(name), tools: toolsFor(name, METADATA_ONLY) });
    facts = serviceFacts(host('leaderboard', config.publicUrl), host('feedback', config.feedbackPublicUrl));
    cache.set(config, facts);
  }
  return facts;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function leaderboardDiscoveryHandlers(runtime: Runtime) {
  const facts = serviceFactsFor(runtime.config);
  const card = json(serverCard(facts.leaderboard, `${facts.leaderboard.base}/`));
  const catalog = json(apiCatalog(facts));
  const robots = robotsTxt(facts);
  const llms = llmsTxt(facts);
  const llmsFull = llmsFullTxt(facts);
  const skillFiles = new Map(skills(facts).map((s) => [s.name, skillFile(s)]));
  const webmcp = webMcpScript(facts);
  return {
    getMcpServerCard: async () => ({ status: 200 as const, text: card, type: 'application/mcp-server-card+json' as const }),
    getWellKnownMcpServerCard: async () => ({ status: 200 as const, body: JSON.parse(card) }),
    getLegacyMcpServerCard: async () => ({ status: 200 as const, body: JSON.parse(card) }),
    getMcpCatalog: async () => ({ status: 200 as const, body: mcpCatalog(facts) as never }),
    getApiCatalog: async () => ({ status: 200 as const, text: catalog, type: LINKSET_MEDIA_TYPE as 'application/linkset+json' }),
    getArdManifest: async () => ({ status: 200 as const, body: ardManifest(facts) as never }),
    getAgentSkillsIndex: async () => ({ status: 200 as const, body: skillsIndex(facts) as never }),
    getAgentSkill: async ({ path }: { path: { skill: string } }) => {
      const file = skillFiles.get(path.skill);
      if (!file) throw notFound(`No skill named ${path.skill}.`);
      return { status: 200 as const, text: file, type: 'text/markdown' as const };
    },
    getRobotsTxt: async () => ({ status: 200 as const, text: robots, type: 'text/plain' as const }),
    getSitemap: async () => ({ status: 200 as const, text: await sitemapXml(facts, runtime.leaderboard), type: 'application/xml' as const }),
    getLlmsTxt: async () => ({ status: 200 as const, text: llms, type: 'text/markdown' as const }),
    getLlmsFullTxt: async () => ({ status: 200 as const, text: llmsFull, type: 'text/markdown' as const }),
    getWebMcpScript: async () => ({ status: 200 as const, text: webmcp, type: 'text/javascript' as const }),
    getHttpMessageSignaturesDirectory: async ({ req }: { req: Request }) => {
      const signer = runtime.scannerSigner;
      if (!signer) throw notFound('This deployment does not sign its scans (SCANNER_SIGNING_KEY is not set).');
      // The directory signs the authority it was asked at (draft-meunier-webbotauth-httpsig-directory §4).
      const headers = await signer.directoryHeaders(`${req.protocol}://${req.get('host')}${req.originalUrl}`);
      return { status: 200 as const, text: JSON.stringify({ keys: [signer.publicKey] }), type: SIGNATURE_DIRECTORY_MEDIA_TYPE as 'application/http-message-signatures-directory+json', headers };
    },
  };
}

export function feedbackDiscoveryHandlers(runtime: Runtime) {
  const facts = serviceFactsFor(runtime.config);
  const card = json(serverCard(facts.feedback, `${facts.leaderboard.base}/`));
  const catalog = json(apiCatalog(facts));
  return {
    getFeedbackMcpServerCard: async () => ({ status: 200 as const, text: card, type: 'application/mcp-server-card+json' as const }),
    getFeedbackWellKnownMcpServerCard: async () => ({ status: 200 as const, body: JSON.parse(card) }),
    getFeedbackApiCatalog: async () => ({ status: 200 as const, text: catalog, type: LINKSET_MEDIA_TYPE as 'application/linkset+json' }),
  };
}

/** The home page's discovery Link header (set by the leaderboard host on its pages). */
export function homeLinkHeader(runtime: Runtime): string {
  return discoveryLinkHeader(serviceFactsFor(runtime.config));
}
