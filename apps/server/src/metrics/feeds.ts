// The LISTEN feeds' state at scrape time: whether this process hears leaderboard changes and progress, since when,
// how often it had to reconnect, and how far its leaderboard may lag the database (server README: "Reading the
// change feed's metrics").
import { Gauge } from 'prom-client';
import type { ListenState, ListenStatus } from '../listen-connection';
import type { Freshness } from '../leaderboard/service';
import type { Metrics } from './metrics';

const STATES: ListenState[] = ['connecting', 'catching-up', 'live', 'down', 'closed'];

export interface FeedSources {
  changes: { status(): ListenStatus };
  progress: { status(): ListenStatus };
  leaderboard: { freshness(): Freshness };
}

export function observeFeeds(metrics: Metrics, sources: FeedSources): void {
  const registers = [metrics.registry];
  const feeds = { changes: sources.changes, progress: sources.progress };
  new Gauge({
    name: 'arl_feed_state',
    help: 'LISTEN feeds by state: 1 for the state each feed is in (feed: changes = leaderboard changes, progress = scan and journey progress).',
    labelNames: ['feed', 'state'],
    registers,
    collect() {
      for (const [feed, source] of Object.entries(feeds)) {
        const { state } = source.status();
        for (const s of STATES) this.set({ feed, state: s }, s === state ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'arl_feed_state_seconds',
    help: 'Seconds each LISTEN feed has been in its current state.',
    labelNames: ['feed'],
    registers,
    collect() {
      for (const [feed, source] of Object.entries(feeds)) this.set({ feed }, (Date.now() - source.status().since) / 1000);
    },
  });
  new Gauge({
    name: 'arl_feed_reconnects',
    help: 'Times each LISTEN feed connected again after losing its connection, since the process started.',
    labelNames: ['feed'],
    registers,
    collect() {
      for (const [feed, source] of Object.entries(feeds)) this.set({ feed }, source.status().reconnects);
    },
  });
  new Gauge({
    name: 'arl_leaderboard_check_age_seconds',
    help: 'Seconds since the leaderboard index was last checked against the database (a load or a catch-up); absent before the first load.',
    registers,
    collect() {
      const { lastCheckAt, loaded } = sources.leaderboard.freshness();
      if (loaded && lastCheckAt !== null) this.set((Date.now() - lastCheckAt) / 1000);
    },
  });
  new Gauge({
    name: 'arl_leaderboard_changes_missed',
    help: 'Companies that a catch-up found changed and no notification had brought, since the process started.',
    registers,
    collect() {
      this.set(sources.leaderboard.freshness().missed);
    },
  });
  new Gauge({
    name: 'arl_leaderboard_checks_failed',
    help: 'Catch-up checks that failed (the database did not answer), since the process started.',
    registers,
    collect() {
      this.set(sources.leaderboard.freshness().failedChecks);
    },
  });
}
