// 404, 429, 5xx and bad requests in the site's design: what happened, what to do, and the request id to quote.
import type { PageData } from '../shared/page-data';

type Props = Extract<PageData, { page: 'error' }>;

export function errorTitle(status: number): string {
  if (status === 404) return 'Page not found';
  if (status === 429) return 'Too many requests';
  if (status === 400) return 'That address is not valid';
  if (status === 503) return 'Service unavailable';
  if (status >= 500) return 'Something went wrong';
  return 'Request failed';
}

export function errorAdvice(status: number, retryAfterSeconds: number | null): string {
  if (status === 404) return 'The page or company does not exist here. Companies appear once they have been scanned.';
  if (status === 429) return `Please wait ${retryAfterSeconds ?? 60} seconds before trying again.`;
  if (status === 400) return 'Check the address: one of its parameters is not one this page understands.';
  if (status === 503) return `The service is starting, busy or shutting down; try again in ${retryAfterSeconds ?? 30} seconds.`;
  return 'The failure is logged under the request id below; please quote it if you report the problem.';
}

export function ErrorPage({ status, code, message, requestId, retryAfterSeconds }: Props) {
  return (
    <article className="error-page">
      <p className="eyebrow">Error {status}</p>
      <h1>{errorTitle(status)}</h1>
      <p className="lead">{errorAdvice(status, retryAfterSeconds)}</p>
      <dl className="facts">
        <dt>What the server said</dt>
        <dd>{message}</dd>
        <dt>Code</dt>
        <dd><code>{code}</code></dd>
        <dt>Request id</dt>
        <dd><code>{requestId}</code></dd>
      </dl>
      <p>
        <a className="button" href="/">Back to the leaderboard</a>
      </p>
    </article>
  );
}
