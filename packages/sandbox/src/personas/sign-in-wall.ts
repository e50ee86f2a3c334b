import { html, page, redirect } from '../responses';
import type { Persona } from '../types';

/** Nothing public: every path sends you to /login, the API answers 401. */
export const signInWall: Persona = {
  name: 'sign-in-wall',
  hostname: 'members-only.test',
  path: '/',
  expected: { kind: 'website', ending: 'sign_in_required', grades: [] },
  description: 'An intranet-style app: every page redirects to /login and the API answers 401.',
  gate(req) {
    if (req.path === '/login') {
      return html(
        page({
          title: 'Sign in – Members Only',
          body: '<main><h1>Sign in</h1><form method="post" action="/login"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button>Sign in</button></form></main>',
        }),
      );
    }
    if (req.path.startsWith('/api') || req.path.startsWith('/.well-known')) {
      return { status: 401, headers: { 'www-authenticate': 'Bearer realm="members-only"', 'content-type': 'application/json' }, body: '{"error":"unauthorized"}' };
    }
    return redirect(`/login?next=${encodeURIComponent(req.path)}`);
  },
  routes: {},
};
