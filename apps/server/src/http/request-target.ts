// RFC 9112 §3.2.2: a server must accept a request target in absolute form (`GET http://host/v1/leaderboard
// HTTP/1.1`, as proxies and some clients send it) and then take the authority from it instead of Host. Node hands
// the target over as it came, so every route would miss (404). Before anything routes, an absolute-form target
// becomes the origin form (path and query) it names, and Host the authority; a target that is not a valid http(s)
// URL is left alone (and answered 404 like any unknown path).
import type * as http from 'node:http';

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function originFormTarget(listener: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const target = req.url ?? '/';
    if (ABSOLUTE_FORM.test(target)) {
      let url: URL | null = null;
      try {
        url = new URL(target);
      } catch {
        url = null;
      }
      if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
        // The path and query exactly as sent (URL would re-encode them): everything after the authority.
        const rest = target.slice(target.indexOf('//') + 2);
        const slash = rest.search(/[/?]/);
        const originForm = slash === -1 ? '/' : rest.slice(slash);
        req.url = originForm.startsWith('?') ? `/${originForm}` : originForm;
        req.headers.host = url.host;
      }
    }
    listener(req, res);
  };
}
