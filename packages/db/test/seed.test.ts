import fs from 'node:fs';
import path from 'node:path';

import { createTestDb, loadSeedFile, seed, SeedFileError, type TestDb } from '../src';
import { defaultSeedDir } from '../src/paths';
import { tempDir } from './helpers';

let db: TestDb;
const dir = tempDir('seed');

beforeAll(async () => {
  db = await createTestDb('seed');
});
afterAll(async () => {
  await db?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

const writeJson = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
};

describe('default seed', () => {
  test('first call seeds categories, companies and the leaderboard feedback project', async () => {
    const result = await seed(db);
    expect(result.seeded).toBe(true);
    expect(result.categories).toBeGreaterThanOrEqual(8);
    expect(result.companies).toBeGreaterThanOrEqual(60);
    expect(await db.prisma.category.count()).toBe(result.categories);
    expect(await db.prisma.company.count()).toBe(result.companies);

    const stripe = await db.prisma.company.findUniqueOrThrow({ where: { domain: 'stripe.com' }, include: { category: true } });
    expect(stripe).toMatchObject({ name: 'Stripe', source: 'curated', score: null, grade: null, scannedAt: null, demo: false });
    expect(stripe.category?.slug).toBe('payments-fintech');
    expect(await db.prisma.company.count({ where: { OR: [{ source: { not: 'curated' } }, { score: { not: null } }] } })).toBe(0);

    const project = await db.prisma.feedbackProject.findUniqueOrThrow({ where: { slug: 'leaderboard' } });
    expect(project).toMatchObject({ name: 'Agent-Readiness Leaderboard', accepting: true, signedOnly: false });
    expect(project.invitation).toMatch(/worked/);
    expect(project.guidance.length).toBeGreaterThan(50);
  });

  test('a second call inserts nothing and keeps an owner’s edits to the feedback project', async () => {
    await db.prisma.feedbackProject.update({ where: { slug: 'leaderboard' }, data: { accepting: false, name: 'Edited' } });
    const before = await db.prisma.company.count();
    expect(await seed(db)).toEqual({ categories: 0, companies: 0, seeded: false, feedbackProjects: 0 });
    expect(await db.prisma.company.count()).toBe(before);
    expect(await db.prisma.feedbackProject.findUniqueOrThrow({ where: { slug: 'leaderboard' } })).toMatchObject({
      accepting: false,
      name: 'Edited',
    });
  });

  test('a deleted feedback project is re-created, but companies are not re-seeded', async () => {
    await db.prisma.feedbackProject.delete({ where: { slug: 'leaderboard' } });
    await db.prisma.company.deleteMany({});
    const result = await seed(db);
    expect(result).toEqual({ categories: 0, companies: 0, seeded: false, feedbackProjects: 1 });
    expect(await db.prisma.company.count()).toBe(0); // categories still there: not a first start
  });

  test('the default data files are valid and the companies are distinct', () => {
    const categories = JSON.parse(fs.readFileSync(path.join(defaultSeedDir(), 'categories.json'), 'utf8'));
    const companies = JSON.parse(fs.readFileSync(path.join(defaultSeedDir(), 'companies.json'), 'utf8'));
    const file = writeJson('combined.json', { categories, companies });
    const data = loadSeedFile(file);
    expect(data.categories.length).toBeGreaterThanOrEqual(8);
    expect(new Set(data.companies.map((c) => c.domain)).size).toBe(data.companies.length);
    for (const c of data.companies) expect(c.website).toMatch(/^https:\/\//);
  });
});

describe('SEED_FILE replacement', () => {
  test('seeds from the given file on first start, then never again', async () => {
    const fresh = await createTestDb('seed-file');
    try {
      const file = writeJson('replacement.json', {
        categories: [{ slug: 'search', name: 'Search' }],
        companies: [
          { name: 'DuckDuckGo', website: 'https://duckduckgo.com', domain: 'duckduckgo.com', category: 'search' },
          { name: 'Uncategorized Co', website: 'http://example.org/about', domain: 'example.org', category: null },
        ],
      });
      expect(await seed(fresh, { seedFile: file })).toEqual({ categories: 1, companies: 2, seeded: true, feedbackProjects: 1 });
      const rows = await fresh.prisma.company.findMany({ orderBy: { domain: 'asc' }, include: { category: true } });
      expect(rows.map((r) => [r.domain, r.category?.slug ?? null, r.source])).toEqual([
        ['duckduckgo.com', 'search', 'curated'],
        ['example.org', null, 'curated'],
      ]);
      expect(await seed(fresh, { seedFile: file })).toEqual({ categories: 0, companies: 0, seeded: false, feedbackProjects: 0 });
      expect(await seed(fresh)).toMatchObject({ seeded: false });
      expect(await fresh.prisma.company.count()).toBe(2);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('malformed seed files', () => {
  const category = { slug: 'tools', name: 'Tools' };
  const company = { name: 'Acme', website: 'https://acme.example', domain: 'acme.example', category: 'tools' };
  const file = (companies: unknown[], categories: unknown[] = [category]) => ({ categories, companies });

  const cases: Array<[string, unknown, RegExp]> = [
    ['invalid JSON', '{"categories": [', /invalid JSON/],
    ['empty file', '', /invalid JSON/],
    ['top level is an array', [], /top level must be an object/],
    ['missing companies', { categories: [category] }, /companies: missing \(must be an array\)/],
    ['categories is not an array', { categories: {}, companies: [] }, /categories: must be an array, got an object/],
    ['unknown top-level key', { categories: [], companies: [], extra: 1 }, /unknown property "extra"/],
    ['category is not an object', file([], ['tools']), /categories\[0\]: must be an object, got string/],
    ['slug with uppercase', file([], [{ slug: 'Tools', name: 'T' }]), /categories\[0\]\.slug: must match/],
    ['slug with double hyphen', file([], [{ slug: 'a--b', name: 'T' }]), /categories\[0\]\.slug: must match/],
    ['slug too long', file([], [{ slug: 'a'.repeat(121), name: 'T' }]), /categories\[0\]\.slug: must be at most 120 characters/],
    ['category without name', file([], [{ slug: 'tools' }]), /categories\[0\]: missing required property "name"/],
    ['duplicate slug', file([], [category, { slug: 'tools', name: 'Again' }]), /categories\[1\]\.slug: duplicate slug "tools" \(also categories\[0\]\)/],
    ['company name is a number', file([{ ...company, name: 42 }]), /companies\[0\]\.name: must be a string, got number/],
    ['company name empty', file([{ ...company, name: '  ' }]), /companies\[0\]\.name: must not be empty/],
    ['website not a URL', file([company, company, company, { ...company, domain: 'x.example', website: 'acme.example' }].map((c, i) => ({ ...c, domain: `d${i}.example` })).map((c, i) => (i === 3 ? { ...c, website: 'acme.example' } : c))), /companies\[3\]\.website: must be an http\(s\) URL/],
    ['website with ftp scheme', file([{ ...company, website: 'ftp://acme.example' }]), /companies\[0\]\.website: must be an http\(s\) URL/],
    ['domain uppercase', file([{ ...company, domain: 'Acme.example' }]), /companies\[0\]\.domain: must be lowercase/],
    ['domain empty', file([{ ...company, domain: '' }]), /companies\[0\]\.domain: must be 1 to 253 characters/],
    ['domain too long', file([{ ...company, domain: `${'a'.repeat(60)}.`.repeat(5) + 'com' }]), /companies\[0\]\.domain: must be 1 to 253 characters/],
    ['domain with scheme', file([{ ...company, domain: 'https://acme.example' }]), /companies\[0\]\.domain: must be a domain name/],
    ['duplicate domain', file([company, { ...company, name: 'Acme 2' }]), /companies\[1\]\.domain: duplicate domain "acme.example" \(also companies\[0\]\)/],
    ['unknown category', file([{ ...company, category: 'nope' }]), /companies\[0\]\.category: unknown category "nope"/],
    ['category missing', file([{ name: 'Acme', website: 'https://acme.example', domain: 'acme.example' }]), /companies\[0\]: missing required property "category"/],
    ['category is a number', file([{ ...company, category: 3 }]), /companies\[0\]\.category: must be a category slug or null, got number/],
    ['unknown company property', file([{ ...company, score: 90 }]), /companies\[0\]: unknown property "score"/],
  ];

  test.each(cases)('%s', (_label, content, problem) => {
    const f = writeJson(`bad-${cases.findIndex((c) => c[1] === content)}.json`, content);
    let error: unknown;
    try {
      loadSeedFile(f);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SeedFileError);
    expect((error as Error).message).toContain(f);
    expect((error as Error).message).toMatch(problem);
  });

  test('a missing file names the file', () => {
    const missing = path.join(dir, 'does-not-exist.json');
    expect(() => loadSeedFile(missing)).toThrow(new SeedFileError(missing, 'file not found'));
  });

  test('seed() rejects a malformed file before touching the database', async () => {
    const f = writeJson('bad-seed.json', file([{ ...company, website: 'nope' }]));
    await expect(seed(db, { seedFile: f })).rejects.toThrow(SeedFileError);
    await expect(seed(db, { seedFile: f })).rejects.toThrow(`seed file ${f}: companies[0].website: must be an http(s) URL`);
  });
});
