// Words and signs for the values the API returns. Every status, grade and movement has text (or a sign read out
// as text), so colour is never the only signal.
import type { Schemas } from './page-data';

export const LAYER_NAMES: Record<Schemas['LayerId'], string> = {
  discovery: 'Discovery',
  access: 'Access',
  usability: 'Usability',
  payments: 'Payments',
};

export const STATUS_LABELS: Record<Schemas['CheckStatus'], { icon: string; text: string }> = {
  passed: { icon: '✓', text: 'Passed' },
  warning: { icon: '!', text: 'Warning' },
  failed: { icon: '✗', text: 'Failed' },
  not_applicable: { icon: '–', text: 'Not applicable' },
  couldnt_check: { icon: '?', text: 'Could not check' },
};

export const TASK_LABELS: Record<Schemas['JourneyTask'], string> = {
  understand_product: 'Understand the product',
  find_pricing: 'Find the pricing',
  get_started: 'Get started',
  api_docs: 'Find the API docs',
  create_account: 'Create an account',
  get_support: 'Get support',
};

export const SORT_LABELS: Record<Schemas['LeaderboardSort'], string> = {
  score: 'Score (rank)',
  company: 'Company name',
  category: 'Category',
  scanned: 'Last scanned',
};

export const ENDING_LABELS: Record<Schemas['ScanEnding'], string> = {
  finished: 'Finished',
  failed: 'Failed',
  interrupted: 'Interrupted',
  sign_in_required: 'Sign-in required',
};

/** "2026-11-22 10:15 UTC": the same text on the server and in every browser (no time-zone mismatch on hydration). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "10:15:04 UTC": for steps that happen within the same minute. */
export function formatClock(iso: string): string {
  return `${iso.slice(11, 19)} UTC`;
}

export function formatDay(iso: string): string {
  return iso.slice(0, 10);
}

/** "+3", "−2", "0"; null when unknown. */
export function signed(value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${Math.abs(value)}`;
  return '0';
}

/** How a rank moved, in words for screen readers and a sign for the eye. */
export function rankMovement(change: number | null | undefined): { sign: string; words: string } {
  if (change === null || change === undefined) return { sign: '—', words: 'not ranked a week ago' };
  if (change > 0) return { sign: `▲ ${change}`, words: `up ${change} place${change === 1 ? '' : 's'} in 7 days` };
  if (change < 0) return { sign: `▼ ${-change}`, words: `down ${-change} place${change === -1 ? '' : 's'} in 7 days` };
  return { sign: '=', words: 'same rank as 7 days ago' };
}

export function scoreMovement(change: number | null | undefined): { sign: string; words: string } {
  if (change === null || change === undefined) return { sign: '—', words: 'no score a week ago' };
  if (change === 0) return { sign: '±0', words: 'same score as 7 days ago' };
  return { sign: signed(change)!, words: `${change > 0 ? 'up' : 'down'} ${Math.abs(change)} point${Math.abs(change) === 1 ? '' : 's'} in 7 days` };
}

export function gradeClass(grade: string | null | undefined): string {
  if (!grade) return 'grade grade-none';
  return `grade grade-${grade === 'A+' ? 'aplus' : grade.toLowerCase()}`;
}

export function humanStep(step: string): string {
  const words: Record<string, string> = {
    waiting: 'Waiting in the queue',
    running: 'Started',
    resolving: 'Resolving the host name',
    fetching_home: 'Fetching the home page',
    detecting_kind: 'Detecting what the target is',
    gathering: 'Gathering documents',
    checking: 'Running the checks',
    scoring: 'Computing the score',
    ended: 'Ended',
  };
  return words[step] ?? step.replace(/_/g, ' ');
}
