import type { ScanResult } from '../../src';
import { openApiBase, parameterlessGet } from '../../src/gather/openapi-endpoint';
import { checkOf, startAndScanSites } from './index';
import type { RunningSite } from './index';
import type { SdkSiteOptions } from './sdk-servers';

/**
 * Verified, not declared (issue 39): sites that publish the same OpenAPI 3.1 document (a relative server, one GET
 * operation without parameters), once serving it and once answering 404 or an HTML page for every path. The scan asks
 * that one operation (a GET that changes nothing): the working document passes and says the operation answers, the
 * dead ones fail naming the operation, and the working twin scores higher.
 */
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Invoices', version: '1.0.0' },
  servers: [{ url: '/api/v1' }],
  paths: {
    '/invoices/{id}': { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'An invoice' } } } },
    '/invoices': { get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: { 200: { description: 'Invoices', content: { 'application/json': { schema: { type: 'array' } } } } } } },
  },
};
const home = { headers: { 'content-type': 'text/html; charset=utf-8', link: '</openapi.json>; rel="service-desc"' }, body: '<!doctype html><html><head><title>Invoices</title></head><body><h1>Invoices API</h1><a href="/docs">API docs</a></body></html>' };

const SITES: Record<string, SdkSiteOptions> = {
  working: { mcpPath: null, routes: () => ({ '/': home, '/openapi.json': json(DOCUMENT), '/api/v1/invoices': json([{ id: 'inv_1', amount: 1200 }]) }) },
  'every path 404': { mcpPath: null, routes: () => ({ '/': home, '/openapi.json': json(DOCUMENT) }) },
  'an HTML page': { mcpPath: null, routes: () => ({ '/': home, '/openapi.json': json(DOCUMENT), '/api/v1/invoices': home }) },
};

describe('OpenAPI documents whose server answers and whose server is not there', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();
  beforeAll(() => startAndScanSites(SITES, sites, results));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  it('the working document passes and says its operation answers', () => {
    const check = checkOf(results.get('working')!, 'openapi');
    expect(check.status).toBe('passed');
    expect(check.detail).toMatch(/GET \/invoices answers \(HTTP 200, application\/json\)/);
  });

  it.each([
    ['every path 404', /declares GET \/invoices at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/invoices, but it is not there \(HTTP 404\)/],
    ['an HTML page', /but it answers an HTML page \(HTTP 200, text\/html\), not the API/],
  ])('%s: the document fails, naming the operation; the working twin scores higher', (name, detail) => {
    const result = results.get(name)!;
    const check = checkOf(result, 'openapi');
    expect(check.status).toBe('failed');
    expect(check.detail).toMatch(detail);
    expect(results.get('working')!.score!).toBeGreaterThan(result.score!);
  });
});

describe('the operation asked and where', () => {
  it('the first GET with no path template and no required parameter, at the first server with its variables', () => {
    expect(parameterlessGet(DOCUMENT)).toBe('/invoices');
    expect(parameterlessGet({ paths: { '/a/{id}': { get: {} }, '/b': { post: {} }, '/c': { parameters: [{ name: 'x', in: 'query', required: true }], get: {} } } })).toBeNull();
    expect(openApiBase(DOCUMENT, 'https://shop.example/openapi.json')).toBe('https://shop.example/api/v1');
    expect(openApiBase({ servers: [{ url: 'https://{region}.api.example/v2', variables: { region: { default: 'eu' } } }] }, 'https://shop.example/openapi.json')).toBe('https://eu.api.example/v2');
    expect(openApiBase({ swagger: '2.0', host: 'api.example', basePath: '/v1', schemes: ['http', 'https'] }, 'https://shop.example/swagger.json')).toBe('https://api.example/v1');
    expect(openApiBase({ openapi: '3.0.3' }, 'https://shop.example/docs/openapi.json')).toBe('https://shop.example/');
  });
});
