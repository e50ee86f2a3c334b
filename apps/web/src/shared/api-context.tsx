// The typed clients the browser uses (from @arl/client, as any frontend would). On the server nothing calls them:
// data arrives through the page's props, and effects and handlers only run in the browser, so there the context
// is empty and components render from their props alone.
import { createContext, useContext, useEffect, useState } from 'react';
import type { FeedbackClient, LeaderboardClient } from '@arl/client';

export interface Api {
  leaderboard: LeaderboardClient;
  feedback: FeedbackClient;
  /** Base URL of the leaderboard host as the browser reaches it (for event stream URLs). */
  baseUrl: string;
}

export const ApiContext = createContext<Api | null>(null);

/**
 * The clients once the page is interactive: null during the server render AND during hydration (the first browser
 * render must produce the server's HTML exactly), set right after.
 */
export function useInteractiveApi(): Api | null {
  const api = useContext(ApiContext);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? api : null;
}
