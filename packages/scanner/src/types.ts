export type Grade = 'A+' | 'A' | 'B' | 'C' | 'D' | 'F';
export type LayerId = 'discovery' | 'access' | 'usability' | 'payments';
export type CheckStatus = 'passed' | 'warning' | 'failed' | 'not_applicable' | 'couldnt_check';
export type ScanEnding = 'finished' | 'failed' | 'interrupted' | 'sign_in_required';
export type TargetKind = 'website' | 'mcp_server' | 'mcp_app';
export type CheckTier = 'required' | 'recommended' | 'emerging';
export type CheckLabel = 'emerging' | 'beta' | null;

export interface Evidence {
  url?: string;
  status?: number | null;
  detail: string;
  excerpt?: string;
  header?: string;
  /**
   * The HTTP exchange the verdict rests on (checks/exchange.ts): what we sent, what came back, bounded and sanitised.
   * Stored with the evidence; a report shows it in words after the detail (exchangeInWords), as the contract's
   * CheckEvidence has no field for it.
   */
  exchange?: EvidenceExchange;
}

export interface EvidenceExchange {
  request: { method: string; url: string; accept: string; userAgent: string; signed: boolean };
  /** Null when no answer came (a timeout, DNS, a refused connection): `error` says what happened. */
  response: { status: number; finalUrl: string | null; contentType: string | null; bytes: number; firstBytes: string } | null;
  error: string | null;
}

export interface CheckResult {
  id: string;
  name: string;
  layer: LayerId;
  tier: CheckTier;
  label: CheckLabel;
  bonus: boolean;
  status: CheckStatus;
  earned: number;
  points: number;
  evidence: Evidence;
  fix: string | null;
}

export interface LayerResult {
  id: LayerId;
  weight: number;
  score: number | null;
}

export interface ScanResult {
  url: string;
  finalUrl: string | null;
  kind: TargetKind;
  ending: ScanEnding;
  cause: string | null;
  score: number | null;
  grade: Grade | null;
  summary: string | null;
  siteName: string | null;
  checks: CheckResult[];
  layers: LayerResult[];
  catalogVersion: string;
  durationMs: number;
}

export interface ScanLogger {
  debug(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}
