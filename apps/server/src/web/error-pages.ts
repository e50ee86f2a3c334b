// Errors of page routes as pages: a browser (Accept prefers text/html) gets the error page in the site's design, an
// agent asking for Markdown gets Markdown; API routes (/v1) and JSON clients keep the `{code, message, requestId}` body.
import type { WebPages } from '@arl/web';
import type { Request } from 'express';
import type { ErrorPageRenderer } from '../http/error-handler';
import { pageContentSecurityPolicy } from './handlers';

export function errorPageRenderer(pages: WebPages, feedbackUrl: string): ErrorPageRenderer {
  // An error page is a page: the same Content-Security-Policy (scripts, framing) as every other page.
  const headers = { 'Content-Security-Policy': pageContentSecurityPolicy(feedbackUrl) };
  return (req: Request, error) => {
    if (req.path === '/v1' || req.path.startsWith('/v1/')) return undefined;
    const preferred = req.accepts(['application/json', 'text/html', 'text/markdown']);
    if (preferred !== 'text/html' && preferred !== 'text/markdown') return undefined;
    const retryAfter = Number(error.headers['Retry-After'] ?? error.headers['retry-after']);
    const page = pages.error(
      { status: error.status, code: error.code, message: error.message, requestId: error.requestId, retryAfterSeconds: retryAfter > 0 ? retryAfter : null },
      req.path,
      preferred === 'text/markdown' ? 'markdown' : 'html',
    );
    return { type: preferred, body: page.body, headers };
  };
}
