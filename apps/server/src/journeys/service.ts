// Starting and reading journeys. Watching is atomic in the database: a journey claims its company through the unique
// `active_company` column (INSERT ... ON CONFLICT DO NOTHING) while it is not ended, so concurrent starts for one
// company, in any number of processes, produce exactly one journey and everyone else watches it.
import { randomUUID } from 'node:crypto';
import type { LeaderboardSchemas } from '@arl/contract';
import type { Db } from '@arl/db';
import { DEFAULT_JOURNEY_TASK, type JourneyTask } from '@arl/journeys';
import { notFound, serviceUnavailable } from '../http/errors';
import type { JobQueue, Tx } from '../jobs/queue';
import { JOURNEY_JOB, type JourneyJobPayload } from './journey-job';
import { toJourneyView } from './view';

type Journey = LeaderboardSchemas['Journey'];
type JourneyStart = LeaderboardSchemas['JourneyStart'];

export interface JourneyServiceDeps {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
}

const TX = { maxWait: 30_000, timeout: 30_000 };

export class JourneyService {
  constructor(private readonly deps: JourneyServiceDeps) {}

  /** 404 for an unknown company, or a community one unless `includeCommunity` (the rule of getCompany). */
  async start(input: { domain: string; includeCommunity: boolean; task?: JourneyTask }): Promise<JourneyStart> {
    const company = await this.deps.db.prisma.company.findUnique({
      where: { domain: input.domain.toLowerCase() },
      select: { id: true, website: true, source: true },
    });
    if (!company || (company.source === 'community' && !input.includeCommunity)) {
      throw notFound(`No company with domain ${JSON.stringify(input.domain)}.`);
    }
    const task = input.task ?? DEFAULT_JOURNEY_TASK;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const outcome = await this.deps.db.prisma.$transaction((tx) => this.startOrWatch(tx, company, task), TX);
      if (outcome) {
        if (outcome.started) this.deps.queue.notify(JOURNEY_JOB);
        return outcome;
      }
      // The journey we collided with ended between our insert and our read: try again.
    }
    throw serviceUnavailable('The journey could not be registered; try again.');
  }

  private async startOrWatch(tx: Tx, company: { id: string; website: string }, task: JourneyTask): Promise<JourneyStart | null> {
    const running = await this.activeJourney(tx, company.id);
    if (running) return { started: false, journey: running };
    const id = randomUUID();
    const inserted = await tx.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO journeys (id, company_id, active_company, task, state, start_url, steps, evidence, created_at)
       VALUES ($1::uuid, $2::uuid, $2::uuid, $3, 'waiting', $4, '[]'::jsonb, '[]'::jsonb, $5)
       ON CONFLICT (active_company) DO NOTHING RETURNING id`,
      id, company.id, task, company.website, this.deps.clock(),
    );
    if (inserted.length === 0) {
      const winner = await this.activeJourney(tx, company.id);
      return winner ? { started: false, journey: winner } : null;
    }
    await this.deps.queue.enqueue<JourneyJobPayload>(JOURNEY_JOB, { journeyId: id }, {}, tx);
    return { started: true, journey: { id, state: 'waiting' } };
  }

  private async activeJourney(tx: Tx, companyId: string): Promise<JourneyStart['journey'] | undefined> {
    const rows = await tx.$queryRawUnsafe<Array<{ id: string; state: Journey['state'] }>>(
      `SELECT id, state::text AS state FROM journeys WHERE active_company = $1::uuid`,
      companyId,
    );
    return rows[0];
  }

  async read(id: string): Promise<Journey | null> {
    const row = await this.deps.db.prisma.journey.findUnique({ where: { id }, include: { company: { select: { domain: true } } } });
    return row ? toJourneyView(row, row.company.domain) : null;
  }
}
