// Direct inserts of companies, scans and history, for read-side tests that must not depend on the scanner.
import { randomUUID } from 'node:crypto';
import type { Db } from '@arl/db';

export interface CompanyFixture {
  name: string;
  domain: string;
  score?: number | null;
  grade?: string | null;
  scannedAt?: Date | null;
  category?: string | null;
  source?: 'curated' | 'community';
  /** Score history rows: [score, recordedAt]. */
  history?: Array<[number, Date]>;
}

export async function ensureCategory(db: Db, slug: string, name = slug.replace(/-/g, ' ')): Promise<string> {
  const row = await db.prisma.category.upsert({ where: { slug }, update: {}, create: { slug, name } });
  return row.id;
}

export async function insertCompany(db: Db, f: CompanyFixture): Promise<string> {
  const categoryId = f.category ? await ensureCategory(db, f.category) : null;
  const id = randomUUID();
  const score = f.score ?? null;
  await db.prisma.company.create({
    data: {
      id,
      name: f.name,
      domain: f.domain,
      website: `https://${f.domain}/`,
      source: f.source ?? 'curated',
      categoryId,
      score,
      grade: score === null ? null : (f.grade ?? gradeOf(score)),
      scannedAt: score === null ? null : (f.scannedAt ?? new Date('2026-11-20T12:00:00.000Z')),
    },
  });
  for (const [s, at] of f.history ?? []) {
    await db.prisma.scoreHistory.create({ data: { companyId: id, score: s, grade: gradeOf(s), recordedAt: at } });
  }
  return id;
}

export function gradeOf(score: number): string {
  return score >= 90 ? 'A' : score >= 75 ? 'B' : score >= 60 ? 'C' : score >= 40 ? 'D' : 'F';
}
