// One component tree for every page: the server renders it to HTML, the browser hydrates the same tree.
import type { PageData } from '../shared/page-data';
import { CompanyPage } from './CompanyPage';
import { ComparePage } from './ComparePage';
import { ErrorPage } from './ErrorPage';
import { JourneyPage } from './JourneyPage';
import { Layout } from './Layout';
import { LeaderboardPage } from './LeaderboardPage';
import { MethodologyPage } from './MethodologyPage';
import { ScanPage } from './ScanPage';
import { StatsPage } from './StatsPage';

export function App({ data }: { data: PageData }) {
  return <Layout current={data.page}>{pageFor(data)}</Layout>;
}

function pageFor(data: PageData) {
  switch (data.page) {
    case 'leaderboard':
      return <LeaderboardPage {...data} />;
    case 'company':
      return <CompanyPage {...data} />;
    case 'scan':
      return <ScanPage {...data} />;
    case 'journey':
      return <JourneyPage {...data} />;
    case 'methodology':
      return <MethodologyPage {...data} />;
    case 'compare':
      return <ComparePage {...data} />;
    case 'stats':
      return <StatsPage {...data} />;
    case 'error':
      return <ErrorPage {...data} />;
  }
}
