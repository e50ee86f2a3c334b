// Challenge markers in one pass (issue 30): the combined search finds exactly what each marker's own pattern finds over
// the whole body, in the same order, on pages mixing markers, their case variants, near misses and overlaps.
import { findChallengeMarkers } from '../src/util/html-summary';

// The markers' patterns as they were run one by one before the single pass (the reference).
const REFERENCE: Array<[string, RegExp]> = [
  ['_cf_chl_opt', /_cf_chl_opt/],
  ['/cdn-cgi/challenge-platform/', /\/cdn-cgi\/challenge-platform\//],
  ['"Just a moment..." title', /<title>\s*Just a moment\.\.\.\s*<\/title>/i],
  ['"Attention Required! | Cloudflare"', /Attention Required! \| Cloudflare/i],
  ['"Checking if the site connection is secure"', /Checking if the site connection is secure/i],
  ['DataDome captcha', /captcha-delivery\.com|geo\.captcha-delivery/i],
  ['PerimeterX/HUMAN block', /px-captcha|_pxCaptcha|_pxAppId/i],
  ['AWS WAF challenge', /awswaf\.com|AwsWafIntegration|aws-waf-token/i],
  ['Imperva incident', /_Incapsula_Resource|Incapsula incident ID/i],
  ['Akamai reference', /errors\.edgesuite\.net|Reference&#32;&#35;\d+\.[0-9a-f]+|Reference #\d+\.[0-9a-f]+\.\d+/i],
  ['"Vercel Security Checkpoint"', /Vercel Security Checkpoint/i],
];
const reference = (body: string) => REFERENCE.filter(([, p]) => p.test(body)).map(([name]) => name);

const PIECES = [
  '_cf_chl_opt', '_CF_CHL_OPT', '_cf_chl_op', '/cdn-cgi/challenge-platform/', '/CDN-CGI/challenge-platform/', '/cdn-cgi/challenge',
  '<title>Just a moment...</title>', '<TITLE>  just a moment...\n</title>', '<title>Just a moment..</title>',
  'Attention Required! | Cloudflare', 'attention required! | cloudflare', 'Attention Required!',
  'Checking if the site connection is secure', 'geo.captcha-delivery', 'captcha-delivery.com', 'captcha-delivery',
  'px-captcha', '_pxcaptcha', '_pxAppId', '_px', 'awswaf.com', 'AWSWAFINTEGRATION', 'aws-waf-token', 'aws-waf',
  '_Incapsula_Resource', 'incapsula incident id', 'Incapsula', 'errors.edgesuite.net', 'Reference&#32;&#35;18.4f2a',
  'Reference #18.4F2A.1700', 'Reference #18.', 'Vercel Security Checkpoint', 'vercel security', 'İ', 'ſ', 'K',
  '<p>', ' ', 'lorem ipsum ', '_', '/', '#', '.', '1', 'a',
];

function random(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

test('one pass finds what every marker pattern finds, in order, on 3000 generated pages', () => {
  const next = random(30);
  for (let i = 0; i < 3000; i++) {
    let body = '';
    const n = 1 + Math.floor(next() * 12);
    for (let j = 0; j < n; j++) body += PIECES[Math.floor(next() * PIECES.length)];
    expect([body, findChallengeMarkers(body)]).toEqual([body, reference(body)]);
  }
});

test('every marker alone, twice in a row (the remembered answer is a copy), and a page without any', () => {
  for (const piece of ['_cf_chl_opt', '/cdn-cgi/challenge-platform/', '<title>Just a moment...</title>', 'Reference #1.a.2', 'AwsWafIntegration']) {
    const body = `<html>${piece}</html>`;
    const first = findChallengeMarkers(body);
    expect(first).toEqual(reference(body));
    first.push('mutated');
    expect(findChallengeMarkers(body)).toEqual(reference(body));
  }
  expect(findChallengeMarkers('<html><title>Welcome</title></html>')).toEqual([]);
  const all = PIECES.join(' ');
  expect(findChallengeMarkers(all)).toEqual(REFERENCE.map(([name]) => name));
});
