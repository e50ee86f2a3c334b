// The stored journey row as the contract's Journey: fields that do not apply yet are absent, never null.
import type { LeaderboardSchemas } from '@arl/contract';
import type { Journey as JourneyRow } from '@arl/db';

type Journey = LeaderboardSchemas['Journey'];

export function toJourneyView(row: JourneyRow, domain: string): Journey {
  const view: Journey = {
    id: row.id,
    state: row.state,
    task: row.task as Journey['task'],
    domain,
    steps: Array.isArray(row.steps) ? (row.steps as Journey['steps']) : [],
    evidence: Array.isArray(row.evidence) ? (row.evidence as Journey['evidence']) : [],
    createdAt: row.createdAt.toISOString(),
  };
  if (row.driver) view.driver = row.driver as NonNullable<Journey['driver']>;
  if (row.startedAt) view.startedAt = row.startedAt.toISOString();
  if (row.state === 'ended') {
    view.outcome = (row.outcome ?? 'failed') as NonNullable<Journey['outcome']>;
    view.cause = row.cause ?? 'The journey ended.';
    view.endedAt = (row.endedAt ?? row.createdAt).toISOString();
    if (row.durationMs !== null) view.durationMs = row.durationMs;
  }
  return view;
}

// The engine's task list and the contract's enumeration must stay one list.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const tasksMatch: Same<import('@arl/journeys').JourneyTask, Journey['task']> = true;
void tasksMatch;
