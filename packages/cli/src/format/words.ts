// Small wording helpers shared by the formats.
import type { CheckStatus } from '../model';

const STATUS_WORDS: Record<CheckStatus, string> = {
  passed: 'passed',
  warning: 'warning',
  failed: 'failed',
  not_applicable: 'not applicable',
  couldnt_check: "couldn't check",
};

export function statusWord(status: CheckStatus | null): string {
  return status === null ? 'absent' : STATUS_WORDS[status];
}

/** +3, −2 (a true minus sign reads better in comments), ±0. */
export function signed(n: number): string {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return '±0';
}
