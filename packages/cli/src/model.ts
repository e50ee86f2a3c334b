// The shapes the gate works with. A run (through the service or local) becomes a ScanOutcome; `--format json`
// prints a GateResult, and a GateResult file is also what `--baseline <file>` reads back.
import type { LeaderboardSchemas } from '@arl/client';

export type Grade = LeaderboardSchemas['Grade'];
export type CheckStatus = LeaderboardSchemas['CheckStatus'];
export type ScanEnding = LeaderboardSchemas['ScanEnding'];

/** One check as the gate reports it: the contract's Check fields a reviewer needs, plus the fix. */
export interface GateCheck {
  id: string;
  name: string;
  layer: LeaderboardSchemas['LayerId'];
  status: CheckStatus;
  earned: number;
  points: number;
  fix: string | null;
}

/** What one scan found. */
export interface ScanOutcome {
  url: string;
  domain: string;
  mode: 'api' | 'local';
  /** The service's scan id and its report URL (null for local runs). */
  scanId: string | null;
  reportUrl: string | null;
  scannedAt: string;
  ending: ScanEnding;
  cause: string;
  score: number | null;
  grade: Grade | null;
  checks: GateCheck[];
}

/** The reference a run is compared with: a company's current report, or an earlier `--format json` output. */
export interface Baseline {
  /** Where it came from, for people: `example.com (service)` or `./baseline.json`. */
  source: string;
  domain: string;
  scannedAt: string;
  score: number;
  grade: Grade;
  checks: GateCheck[];
}

export interface CheckChange {
  id: string;
  name: string;
  layer: GateCheck['layer'];
  /** null when the check did not exist in the baseline (new in the catalog, or another kind of target). */
  before: CheckStatus | null;
  after: CheckStatus | null;
  /** Points earned now minus points earned then. */
  delta: number;
  /** worse: fewer points than the baseline; better: more; same points but another status: neither. */
  direction: 'worse' | 'better' | 'neutral';
  fix: string | null;
}

export interface GateVerdict {
  passed: boolean;
  /** One sentence per reason the gate failed (empty when it passed). */
  failures: string[];
}

export interface GateResult extends ScanOutcome {
  tool: 'arl';
  formatVersion: 1;
  failUnder: number | null;
  failOnGradeDrop: boolean;
  failOnCheckDrop: boolean;
  maxDrop: number;
  baseline: Omit<Baseline, 'checks'> | null;
  /** score − baseline score; null without a baseline. */
  delta: number | null;
  changes: CheckChange[];
  verdict: GateVerdict;
  /** Checks that failed or warned in this run, with their fix (what to do next). */
  toFix: GateCheck[];
}
