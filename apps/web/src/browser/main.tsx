// Hydrates the page the server rendered: same tree, same data (read from the page), plus the typed clients of
// @arl/client for what happens next (search, paging, scans, journeys, feedback).
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createFeedbackClient, createLeaderboardClient, requestIdMiddleware } from '@arl/client';
import { App } from '../pages/App';
import { ApiContext, type Api } from '../shared/api-context';
import type { PagePayload } from '../shared/page-data';
import './styles.css';

const payload = JSON.parse(document.getElementById('page-data')!.textContent!) as PagePayload;
const baseUrl = window.location.origin;
const middleware = [requestIdMiddleware()];
const api: Api = {
  leaderboard: createLeaderboardClient(baseUrl, { middleware }),
  feedback: createFeedbackClient(payload.site.feedbackUrl, { middleware }),
  baseUrl,
};

hydrateRoot(
  document.getElementById('app')!,
  <StrictMode>
    <ApiContext.Provider value={api}>
      <App data={payload.data} />
    </ApiContext.Provider>
  </StrictMode>,
);
document.documentElement.dataset.hydrated = 'true';
