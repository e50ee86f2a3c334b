// What each page needs, fetched through @arl/client on the server and handed to the browser as JSON so hydration
// renders exactly what the server rendered. Types come from the generated contract, never written by hand.
import type { LeaderboardSchemas } from '@arl/client';

export type Schemas = LeaderboardSchemas;
export type LeaderboardList = { items: Schemas['LeaderboardEntry'][]; nextCursor: string | null; total: number };

/** The leaderboard view a URL describes (every field optional: absent means the API's default). */
export interface LeaderboardQuery {
  q?: string;
  category?: string;
  sort?: Schemas['LeaderboardSort'];
  order?: Schemas['SortOrder'];
  community?: 'include';
  cursor?: string;
  /** Page size (the API's default when absent). */
  limit?: number;
}

/** The population the stats page shows (getPopulationStats' parameters). */
export interface StatsQuery {
  category?: string;
  community?: 'include';
}

/** What the site knows about its own progress, for the truthful empty state. */
export type Coverage = Schemas['Coverage'];

export type PageData =
  | { page: 'leaderboard'; query: LeaderboardQuery; list: LeaderboardList; categories: Schemas['Category'][]; coverage: Coverage | null }
  | {
      page: 'company';
      community: boolean;
      company: Schemas['CompanyDetail'];
      report: Schemas['ScanReport'] | null;
      history: Schemas['ScoreHistory'] | null;
      /** Check status changes of the last 90 days ("was failed until ..."; the last 7 days moved the score). */
      changes: Schemas['CheckChanges'] | null;
      /** The same over the last 7 days: the checks that moved the 7-day score. */
      moved: Schemas['CheckChanges'] | null;
      /** Absolute URLs for the badge snippet. */
      badge: { image: string; page: string };
      /** The company's latest disputed verdicts (listCompanyDisputes), newest first. */
      disputes: Schemas['Dispute'][];
    }
  | {
      page: 'compare';
      /** The domains asked for, in order (the table shows them once at least two are known). */
      domains: string[];
      community: boolean;
      comparison: Schemas['Comparison'] | null;
    }
  | { page: 'scan'; scan: Schemas['Scan'] | null; joined: boolean; report?: Schemas['ScanReport'] | null }
  | { page: 'journey'; domain: string; community: boolean; companyName: string; journey: Schemas['Journey'] | null }
  | { page: 'methodology'; methodology: Schemas['Methodology'] }
  | { page: 'stats'; query: StatsQuery; stats: Schemas['PopulationStats'] }
  | { page: 'error'; status: number; code: string; message: string; requestId: string; retryAfterSeconds: number | null };

/** Settings the browser needs: where the feedback host is (reports of a wrong verdict go there). */
export interface SiteConfig {
  feedbackUrl: string;
}

export interface PagePayload {
  data: PageData;
  site: SiteConfig;
}
