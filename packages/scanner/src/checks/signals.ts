import type { Artifacts, FetchedDoc } from '../gather/artifacts';
import type { HtmlSummary } from '../util/html-summary';
import { jsonLdTypes } from '../util/html-summary';
import { parseJsonObject } from '../util/json';
import { parseLinkHeader } from '../util/link-header';
import { isJudgedOpenApi, openApiDocumentOf, openApiSpecOf } from '../util/openapi-document';
import { isOk } from './define';
import { declaresMpp, declaresX402, paymentAuthChallenges, x402Challenges } from './payment-signals';

/** Facts several checks share, derived purely from artifacts so that applicability is consistent. */

const LOGIN_PATH = /\/(login|log-in|signin|sign-in|sign_in|auth|sso|session|account\/login)(\/|$|\?)/i;

export function isSignInWall(doc: FetchedDoc | null, html: HtmlSummary | null): boolean {
  if (!doc || doc.status === null) return false;
  if (doc.status === 401) return true;
  const finalPath = safePath(doc.finalUrl ?? doc.url);
  const loginText = /sign in|log in|login|anmelden|connexion/i.test(`${html?.title ?? ''} ${html?.h1.join(' ') ?? ''}`);
  if (doc.status === 403 && (html?.hasPasswordInput || loginText)) return true;
  return LOGIN_PATH.test(finalPath) && Boolean(html?.hasPasswordInput) && finalPath !== safePath(doc.url);
}

function safePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

export function offersWithPrice(items: unknown[]): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.forEach((v) => visit(v, depth + 1));
      return;
    }
    const record = value as Record<string, unknown>;
    const types = jsonLdTypes(record);
    const hasPrice = record.price !== undefined || record.lowPrice !== undefined;
    if ((types.includes('Offer') || types.includes('AggregateOffer')) && hasPrice && typeof record.priceCurrency === 'string') found.push(record);
    for (const child of Object.values(record)) visit(child, depth + 1);
  };
  items.forEach((i) => visit(i, 0));
  return found;
}

const PRICE_TEXT = /([$€£¥]\s?\d)|(\d+(?:[.,]\d+)?\s?(USD|EUR|GBP))|(per (user|month|seat))|(\/\s?(mo|month))/i;

const PRICING_PATH = /\/(pricing|plans|prices)\/?$/i;
const DOCS_PATH = /\/(docs?|documentation|guides?|reference|api-reference|help|blog|changelog)(\/|$)/i;
const PRICING_HEADING = /\b(pricing|plans?|prices?)\b/i;
/** Words a pricing page uses around its prices, which a docs page quoting an amount rarely does. */
const PRICING_WORDS = /\b(pricing|plans?|per (month|year|user|seat)|billed (monthly|yearly|annually)|subscription|free trial|upgrade)\b/i;

/**
 * A page that is about prices: at a pricing path outside the docs, or titled as pricing; never the home page or the
 * site's catch-all page. A docs page that mentions an amount is not commerce.
 */
export function isPricingPage(a: Artifacts): boolean {
  const doc = a.pricing;
  if (!isOk(doc)) return false;
  const finalPath = safePath(doc.finalUrl ?? doc.url).replace(/\?.*$/, '');
  if (a.home && (doc.finalUrl ?? doc.url) === (a.home.finalUrl ?? a.home.url)) return false;
  if (a.notFoundProbe?.status === 200 && a.notFoundProbe.body === doc.body) return false;
  const titled = PRICING_HEADING.test(`${a.pricingHtml?.title ?? ''} ${a.pricingHtml?.h1.join(' ') ?? ''}`);
  if (titled) return true;
  if (!PRICING_PATH.test(finalPath) || DOCS_PATH.test(finalPath)) return false;
  // At a pricing path under another title: it must still read like a pricing page, not a page that quotes an amount.
  return !a.pricingHtml || PRICING_WORDS.test(doc.body.replace(/<[^>]*>/g, ' '));
}

export function pricingPageShowsPrices(a: Artifacts): boolean {
  return isOk(a.pricing) && !isSignInWall(a.pricing, a.pricingHtml) && isPricingPage(a) && PRICE_TEXT.test(a.pricing.body);
}

export function structuredOffers(a: Artifacts): Array<Record<string, unknown>> {
  return [...offersWithPrice(a.pricingHtml?.jsonLd ?? []), ...offersWithPrice(a.homeHtml?.jsonLd ?? [])];
}

export type PaymentProtocol = 'x402' | 'payment-auth' | 'acp' | 'ucp' | 'ap2';

/** Protocols in place: a live 402 challenge (the target, its OpenAPI's paid path, a linked resource) or OpenAPI x-payment-info. */
export function paymentProtocols(a: Artifacts): Set<PaymentProtocol> {
  const found = new Set<PaymentProtocol>();
  if (x402Challenges(a).length > 0 || declaresX402(a)) found.add('x402');
  if (paymentAuthChallenges(a).length > 0 || declaresMpp(a)) found.add('payment-auth');
  if (isOk(a.wellKnown.acp) && parseJsonObject(a.wellKnown.acp.body)) found.add('acp');
  if (isOk(a.wellKnown.ucp) && parseJsonObject(a.wellKnown.ucp.body)) found.add('ucp');
  if (ap2Extension(a)) found.add('ap2');
  return found;
}

export function ap2Extension(a: Artifacts): string | null {
  const card = isOk(a.wellKnown.agentCard) ? parseJsonObject(a.wellKnown.agentCard.body) : null;
  const extensions = (card?.capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (!Array.isArray(extensions)) return null;
  const match = extensions.find((e) => typeof (e as { uri?: unknown })?.uri === 'string' && /ap2/i.test((e as { uri: string }).uri));
  return match ? (match as { uri: string }).uri : null;
}

/** Commerce means payments can apply: a priced pricing page, offers, a checkout link, or a payment protocol already in place. */
export function hasCommerce(a: Artifacts): boolean {
  if (structuredOffers(a).length > 0 || pricingPageShowsPrices(a)) return true;
  if ((a.homeHtml?.links ?? []).some((l) => /\/(checkout|cart|buy)(\/|$|\?)/i.test(l.href))) return true;
  return paymentProtocols(a).size > 0;
}

/** The documents hasCommerce reads besides the home page. */
export function commerceDocs(a: Artifacts): Array<FetchedDoc | null | undefined> {
  return [a.pricing, a.wellKnown.acp, a.wellKnown.ucp, a.wellKnown.agentCard, a.wellKnown.x402, a.paymentProbe, ...a.openapi, ...a.linkedPaymentProbes];
}

/** The documents isProductSite reads besides the home page (an MCP server counts once found; its discovery documents too). */
export function productDocs(a: Artifacts): Array<FetchedDoc | null | undefined> {
  return [...commerceDocs(a), a.wellKnown.mcpServerCard, a.wellKnown.mcpJson, a.wellKnown.apiCatalog];
}

/** The documents a website's MCP server is announced in (mcp-discovery.ts): unread, "no MCP server" is a guess. */
export function mcpDiscoveryDocs(a: Artifacts): Array<FetchedDoc | null | undefined> {
  return a.kind === 'website' ? [a.wellKnown.mcpServerCard, a.wellKnown.mcpJson, a.wellKnown.apiCatalog, a.llmsTxt] : [];
}

/** The documents needsSignIn reads besides the home page and the MCP session. */
export function signInDocs(a: Artifacts): Array<FetchedDoc | null | undefined> {
  return [a.wellKnown.oauthAuthorizationServer, a.wellKnown.openidConfiguration, ...a.openapi];
}

export function hasApiSurface(a: Artifacts): boolean {
  const links = parseLinkHeader(a.home?.headers.link ?? '', a.targetUrl);
  if (links.some((l) => l.rel.some((r) => r === 'service-desc' || r === 'service-doc' || r === 'api-catalog'))) return true;
  if (a.openapi.some((d) => isOk(d) && validOpenApi(d) !== null)) return true;
  return (a.homeHtml?.links ?? []).some((l) => /(^|\b)(api|developers?)(\b|$)/i.test(l.text) || /\/(api|developers?)(\/|$)/i.test(safePath(l.href)));
}

const ACCOUNT_TEXT = /\b(sign ?in|log ?in|sign ?up|create (an )?account|register|free trial|my account)\b/i;
const ACCOUNT_PATH = /\/(login|log-in|signin|sign-in|sign_in|signup|sign-up|register|account|auth|sso)(\/|$|\?)/i;

/** Something on the site is reached by signing in: an account link, an OAuth-secured API or MCP server, or published OAuth metadata. */
export function needsSignIn(a: Artifacts): boolean {
  if (a.mcp?.auth.required) return true;
  if ((a.homeHtml?.links ?? []).some((l) => ACCOUNT_TEXT.test(l.text) || ACCOUNT_PATH.test(safePath(l.href)))) return true;
  if (isOk(a.wellKnown.oauthAuthorizationServer) || isOk(a.wellKnown.openidConfiguration)) return true;
  return a.openapi.some((d) => {
    const spec = isOk(d) ? openApiSpecOf(d) : null;
    const schemes = (spec?.components as { securitySchemes?: Record<string, { type?: unknown }> } | undefined)?.securitySchemes ?? (spec?.securityDefinitions as Record<string, { type?: unknown }> | undefined);
    return Object.values(schemes ?? {}).some((s) => s?.type === 'oauth2' || s?.type === 'openIdConnect');
  });
}

/** A product or business site, as opposed to a publication: the conditional checks (AgentReady style) apply to these. */
export function isProductSite(a: Artifacts): boolean {
  return hasCommerce(a) || hasApiSurface(a) || a.mcp !== null || (a.homeHtml?.links ?? []).some((l) => /sign ?up|get started|free trial|create (an )?account/i.test(l.text));
}

/** The version of a readable OpenAPI document (JSON or YAML) we judge: Swagger 2.0, OpenAPI 3.0 or 3.1 with paths. */
export function validOpenApi(doc: FetchedDoc): string | null {
  const reading = openApiDocumentOf(doc);
  return isJudgedOpenApi(reading) ? reading.version : null;
}
