import type { ScanResult } from '../../src';
import { checkOf, startAndScanSites } from './index';
import type { RunningSite, SdkSiteOptions } from './index';

/**
 * robots.txt (RFC 9309), Content-Usage (draft-ietf-aipref-vocab, draft-ietf-aipref-attach) and Content-Signal
 * (draft-romm-aipref-contentsignals) read together for training, search and user-triggered agents.
 */
const robots = (body: string): SdkSiteOptions => ({ mcpPath: null, routes: () => ({ '/robots.txt': { headers: { 'content-type': 'text/plain' }, body } }) });

const SITES: Record<string, SdkSiteOptions> = {
  consistent: robots('User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y, ai-use=y\nContent-Signal: ai-train=no, search=yes, ai-input=yes\n\nUser-agent: GPTBot\nUser-agent: ClaudeBot\nDisallow: /\n'),
  contradictory: robots('User-agent: *\nAllow: /\nContent-Signal: ai-train=no, search=yes, ai-input=yes\n\nUser-agent: OAI-SearchBot\nUser-agent: Claude-SearchBot\nUser-agent: PerplexityBot\nDisallow: /\n'),
  'one family': robots('User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n'),
  silent: robots('User-agent: *\nAllow: /\n'),
};

describe('AI preferences by agent family', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();
  beforeAll(() => startAndScanSites(SITES, sites, results));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  it('each family with a consistent statement passes, and the evidence groups them', () => {
    const check = checkOf(results.get('consistent')!, 'ai-preferences-by-agent');
    expect(check.status).toBe('passed');
    expect(check.detail).toBe(
      'training: robots.txt refuses GPTBot, ClaudeBot; Content-Usage train-ai=n; Content-Signal ai-train=no · search: Content-Usage search=y; Content-Signal search=yes · user-triggered agents: Content-Usage ai-use=y; Content-Signal ai-input=yes',
    );
  });

  it('a signal that allows what robots.txt refuses is named as a contradiction', () => {
    expect(checkOf(results.get('contradictory')!, 'ai-preferences-by-agent')).toMatchObject({ status: 'warning', detail: expect.stringContaining('Contradictions: search: Content-Signal search allows, robots.txt refuses') });
  });

  it('one family stated is a warning; none is a fail (emerging: it only adds)', () => {
    expect(checkOf(results.get('one family')!, 'ai-preferences-by-agent')).toMatchObject({ status: 'warning', detail: expect.stringContaining('search: nothing explicit') });
    expect(checkOf(results.get('silent')!, 'ai-preferences-by-agent')).toMatchObject({ status: 'failed', detail: expect.stringContaining('robots.txt relies on User-agent: *') });
  });
});
