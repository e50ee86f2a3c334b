import { parsePage } from '../src/page/parse-page';

const page = (body: string, init: { status?: number; url?: string; finalUrl?: string; headers?: Record<string, string> } = {}) =>
  parsePage({
    url: init.url ?? 'https://example.com/pricing',
    finalUrl: init.finalUrl ?? init.url ?? 'https://example.com/pricing',
    status: init.status ?? 200,
    headers: new Headers({ 'content-type': 'text/html; charset=utf-8', ...init.headers }),
    body,
    bytes: body.length,
  });

describe('access verdicts', () => {
  test.each([
    ['401', page('{}', { status: 401, headers: { 'www-authenticate': 'Bearer' } }), 'sign_in'],
    ['403 challenge', page('<title>Just a moment...</title>', { status: 403 }), 'blocked'],
    ['200 challenge page', page('<script>window._cf_chl_opt={}</script>'), 'blocked'],
    ['plain 403', page('no', { status: 403 }), 'blocked'],
    ['429', page('slow down', { status: 429 }), 'blocked'],
    ['404', page('gone', { status: 404 }), 'not_found'],
    ['500', page('oops', { status: 500 }), 'error'],
    [
      'redirect to a login form',
      page('<title>Sign in</title><form><input type="email" name="email"><input type="password" name="password"><button>Sign in</button></form>', { finalUrl: 'https://example.com/login?next=/pricing' }),
      'sign_in',
    ],
    ['a sign-up page asked for is not a wall', page('<title>Create your account</title><form><input type="password" name="p"></form>', { url: 'https://example.com/signup' }), 'ok'],
    ['a login page asked for is not a wall', page('<title>Sign in</title><form><input type="password" name="p"></form>', { url: 'https://example.com/login' }), 'ok'],
  ])('%s', (_label, view, access) => {
    expect(view.access).toBe(access);
  });
});

test('reads links, forms, JSON-LD and keeps cells apart', () => {
  const view = page(`<html><head><title>Pricing</title><meta name="description" content="Plans">
<script type="application/ld+json">{"@graph":[{"@type":"Offer","price":"9","priceCurrency":"EUR"}]}</script><script type="application/ld+json">{broken</script></head>
<body><nav><a href="/">Home</a></nav><table><tr><td>Pro</td><td>€9</td></tr></table><a href="mailto:help@example.com">Mail</a><a href="#top">Top</a><a href="javascript:void(0)">x</a>
<form method="post" action="/signup"><input type="hidden" name="csrf"><input name="email" type="email"><button>Sign up</button></form></body></html>`);
  expect(view.title).toBe('Pricing');
  expect(view.text).toMatch(/Pro\s+€9/);
  expect(view.text).not.toMatch(/Home/);
  expect(view.links.map((l) => l.url)).toEqual(['https://example.com/', 'mailto:help@example.com']);
  expect(view.forms).toEqual([{ action: 'https://example.com/signup', method: 'post', inputs: [{ name: 'email', type: 'email' }], buttons: ['Sign up'] }]);
  expect(view.jsonLd).toHaveLength(2);
});

test('a JavaScript-only page is flagged', () => {
  expect(page('<div id="root"></div><script src="/app.js"></script><noscript>You need to enable JavaScript to run this app.</noscript>').scriptOnly).toBe(true);
});

test('markdown: links and the summary line', () => {
  const view = parsePage({
    url: 'https://example.com/llms.txt', finalUrl: 'https://example.com/llms.txt', status: 200, headers: new Headers({ 'content-type': 'text/markdown' }),
    body: '# Example\n\n> Example sells widgets to teams.\n\n- [Pricing](/pricing): plans\n- https://docs.example.com/start\n', bytes: 10,
  });
  expect(view).toMatchObject({ title: 'Example', description: 'Example sells widgets to teams.', access: 'ok' });
  expect(view.links.map((l) => l.url)).toEqual(['https://example.com/pricing', 'https://docs.example.com/start']);
});
