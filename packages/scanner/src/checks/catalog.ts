import { aiAgentsNotBlocked, contentWithoutJs, honestNotFound, noBotChallenge, publicHomePage } from './access/live-access';
import { aiSearchBotsAllowed, contentSignals, trainingBotPolicy } from './access/bot-rules';
import { contentUsage } from './access/content-usage';
import { aiPreferencesByAgent } from './access/preferences-by-family';
import { ardManifest } from './discovery/ard';
import { dnsAgentDiscovery } from './discovery/dns-agent';
import { clientRegistration, honestRateLimits, oauthDiscovery, pkceS256, protectedResourceMetadata } from './access/oauth';
import { llmsFullTxt, llmsTxt, llmsTxtLinked } from './discovery/llms-txt';
import { jsonLd, pageMetadata } from './discovery/page-metadata';
import { robotsTxt, sitemap } from './discovery/robots-and-sitemap';
import { a2aAgentCard, agentSkills, apiCatalog, linkHeaders, mcpCardConsistent, mcpServerCard, openApi } from './discovery/well-known-documents';
import { acp, ap2, paymentAuthScheme, ucp, x402 } from './payments/protocols';
import {
  mcpAppsCsp,
  mcpAppsUiResource,
  mcpInitialize,
  mcpOutputSchema,
  mcpSafetyLint,
  mcpToolAnnotations,
  mcpToolDescriptions,
  mcpToolNames,
  mcpToolSchemas,
  mcpToolsList,
} from './usability/mcp-tools';
import { mcpOriginCheck } from './usability/mcp-origin';
import { mcpCacheHints, mcpRequestHeaders, mcpResultType, mcpStateless } from './usability/mcp-revision';
import { docsLinks, markdownNegotiation, pricingReadable, webMcp } from './usability/web-usability';
import type { CheckDefinition } from './types';

/** Order is presentation order. Ids are stable forever; a removed check's id is never reused. */
export const CHECK_CATALOG: readonly CheckDefinition[] = Object.freeze([
  robotsTxt,
  sitemap,
  llmsTxt,
  llmsTxtLinked,
  llmsFullTxt,
  linkHeaders,
  apiCatalog,
  openApi,
  mcpServerCard,
  mcpCardConsistent,
  a2aAgentCard,
  agentSkills,
  ardManifest,
  dnsAgentDiscovery,
  jsonLd,
  pageMetadata,
  aiSearchBotsAllowed,
  trainingBotPolicy,
  contentSignals,
  contentUsage,
  aiPreferencesByAgent,
  aiAgentsNotBlocked,
  noBotChallenge,
  contentWithoutJs,
  publicHomePage,
  oauthDiscovery,
  protectedResourceMetadata,
  pkceS256,
  clientRegistration,
  honestNotFound,
  honestRateLimits,
  markdownNegotiation,
  mcpInitialize,
  mcpToolsList,
  mcpToolSchemas,
  mcpToolDescriptions,
  mcpToolAnnotations,
  mcpToolNames,
  mcpSafetyLint,
  mcpOriginCheck,
  mcpResultType,
  mcpCacheHints,
  mcpRequestHeaders,
  mcpStateless,
  mcpOutputSchema,
  mcpAppsUiResource,
  mcpAppsCsp,
  pricingReadable,
  docsLinks,
  webMcp,
  x402,
  paymentAuthScheme,
  acp,
  ucp,
  ap2,
]);
