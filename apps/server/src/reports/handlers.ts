// Reports and history (extensions): a scan's full report, a company's latest report, a company's score history.
import type { LeaderboardOperations } from '@arl/contract';
import type { Handlers } from '../http/operations';
import type { ReportService } from './service';

type ReportOperations = Pick<LeaderboardOperations, 'getScanReport' | 'getCompanyReport' | 'getCompanyHistory'>;

export function reportHandlers(reports: ReportService): Handlers<ReportOperations> {
  return {
    async getScanReport({ path }) {
      return { status: 200, body: await reports.scanReport(path.scanId) };
    },
    async getCompanyReport({ path, query }) {
      return { status: 200, body: await reports.companyReport(path.domain, query.community === 'include') };
    },
    async getCompanyHistory({ path, query }) {
      return { status: 200, body: await reports.history(path.domain, query.community === 'include', query.days ?? 90) };
    },
  };
}
