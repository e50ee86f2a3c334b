import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import type { Db, Logger } from './db';
import { defaultSeedDir } from './paths';

/** A seed file is unreadable or malformed. The message names the file and the exact problem. */
export class SeedFileError extends Error {
  readonly file: string;
  readonly problem: string;
  constructor(file: string, problem: string) {
    super(`seed file ${file}: ${problem}`);
    this.name = 'SeedFileError';
    this.file = file;
    this.problem = problem;
  }
}

export interface SeedCategory {
  slug: string;
  name: string;
}
export interface SeedCompany {
  name: string;
  website: string;
  domain: string;
  category: string | null;
}
export interface SeedData {
  categories: SeedCategory[];
  companies: SeedCompany[];
}
export interface SeedFeedbackProject {
  slug: string;
  name: string;
  invitation: string;
  guidance: string;
  accepting: boolean;
  signedOnly: boolean;
}

export interface SeedOptions {
  /** An operator's replacement for the default categories/companies: `{"categories": [...], "companies": [...]}`. */
  seedFile?: string;
  /** Directory of the default data files (categories.json, companies.json, feedback-projects.json). */
  seedDir?: string;
  logger?: Logger;
}

export interface SeedResult {
  /** Categories inserted by this call. */
  categories: number;
  /** Companies inserted by this call. */
  companies: number;
  /** True when this call seeded categories and companies (first start: both tables were empty). */
  seeded: boolean;
  /** Feedback projects inserted by this call (existing ones are never touched). */
  feedbackProjects: number;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HOSTNAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;

type Problem = (where: string, message: string) => never;

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value;

function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new SeedFileError(file, code === 'ENOENT' ? 'file not found' : `cannot read the file (${code ?? String(err)})`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new SeedFileError(file, `invalid JSON: ${(err as Error).message}`);
  }
}

function checkObject(value: unknown, where: string, allowed: readonly string[], fail: Problem): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, `must be an object, got ${describe(value)}`);
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      fail(where, `unknown property "${key}" (allowed: ${allowed.join(', ')})`);
    }
  }
  return obj;
}

function checkString(obj: Record<string, unknown>, key: string, where: string, fail: Problem, max = 1000): string {
  const value = obj[key];
  if (value === undefined) fail(where, `missing required property "${key}"`);
  if (typeof value !== 'string') fail(`${where}.${key}`, `must be a string, got ${describe(value)}`);
  const text = value as string;
  if (text.trim() === '') fail(`${where}.${key}`, 'must not be empty');
  if (text.length > max) fail(`${where}.${key}`, `must be at most ${max} characters (got ${text.length})`);
  return text;
}

function checkSlug(obj: Record<string, unknown>, key: string, where: string, fail: Problem, max: number): string {
  const slug = checkString(obj, key, where, fail, max);
  if (!SLUG_PATTERN.test(slug)) {
    fail(`${where}.${key}`, `must match ${SLUG_PATTERN.source} (lowercase letters and digits separated by single hyphens), got ${JSON.stringify(slug)}`);
  }
  return slug;
}

function checkArray(value: unknown, where: string, fail: Problem): unknown[] {
  if (value === undefined) fail(where, 'missing (must be an array)');
  if (!Array.isArray(value)) fail(where, `must be an array, got ${describe(value)}`);
  return value as unknown[];
}

function validateCategories(value: unknown, where: string, fail: Problem): SeedCategory[] {
  const seen = new Map<string, number>();
  return checkArray(value, where, fail).map((item, i) => {
    const at = `${where}[${i}]`;
    const obj = checkObject(item, at, ['slug', 'name'], fail);
    const slug = checkSlug(obj, 'slug', at, fail, 120);
    const name = checkString(obj, 'name', at, fail, 200);
    const first = seen.get(slug);
    if (first !== undefined) fail(`${at}.slug`, `duplicate slug ${JSON.stringify(slug)} (also ${where}[${first}])`);
    seen.set(slug, i);
    return { slug, name: name.trim() };
  });
}

function validateCompanies(value: unknown, where: string, categorySlugs: Set<string>, categoriesWhere: string, fail: Problem): SeedCompany[] {
  const seen = new Map<string, number>();
  return checkArray(value, where, fail).map((item, i) => {
    const at = `${where}[${i}]`;
    const obj = checkObject(item, at, ['name', 'website', 'domain', 'category'], fail);
    const name = checkString(obj, 'name', at, fail, 200);

    const website = checkString(obj, 'website', at, fail, 2048);
    let url: URL | undefined;
    try {
      url = new URL(website);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || /\s/.test(website)) {
      fail(`${at}.website`, `must be an http(s) URL, got ${JSON.stringify(website)}`);
    }

    const domain = obj.domain;
    if (domain === undefined) fail(at, 'missing required property "domain"');
    if (typeof domain !== 'string') fail(`${at}.domain`, `must be a string, got ${describe(domain)}`);
    const d = domain as string;
    if (d.length < 1 || d.length > 253) fail(`${at}.domain`, `must be 1 to 253 characters (got ${d.length})`);
    if (d !== d.toLowerCase()) fail(`${at}.domain`, `must be lowercase, got ${JSON.stringify(d)}`);
    if (!HOSTNAME.test(d) && net.isIP(d) === 0) {
      fail(`${at}.domain`, `must be a domain name such as "example.com" (no scheme, path or port), got ${JSON.stringify(d)}`);
    }
    const first = seen.get(d);
    if (first !== undefined) fail(`${at}.domain`, `duplicate domain ${JSON.stringify(d)} (also ${where}[${first}])`);
    seen.set(d, i);

    if (!('category' in obj)) fail(at, 'missing required property "category" (a category slug or null)');
    const category = obj.category;
    if (category !== null && typeof category !== 'string') {
      fail(`${at}.category`, `must be a category slug or null, got ${describe(category)}`);
    }
    if (typeof category === 'string' && !categorySlugs.has(category)) {
      fail(`${at}.category`, `unknown category ${JSON.stringify(category)} (not a slug in ${categoriesWhere})`);
    }
    return { name: name.trim(), website, domain: d, category: category as string | null };
  });
}

const failIn =
  (file: string): Problem =>
  (where, message) => {
    throw new SeedFileError(file, where ? `${where}: ${message}` : message);
  };

/** Reads and validates an operator's seed file `{"categories": [...], "companies": [...]}`. */
export function loadSeedFile(file: string): SeedData {
  const fail = failIn(file);
  const data = readJson(file);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    fail('', `the top level must be an object {"categories": [...], "companies": [...]}, got ${describe(data)}`);
  }
  const obj = checkObject(data, '(top level)', ['categories', 'companies'], fail);
  const categories = validateCategories(obj.categories, 'categories', fail);
  const companies = validateCompanies(obj.companies, 'companies', new Set(categories.map((c) => c.slug)), 'categories', fail);
  return { categories, companies };
}

/** Reads and validates the default data files (categories.json and companies.json, each an array). */
export function loadDefaultSeed(seedDir: string = defaultSeedDir()): SeedData {
  const categoriesFile = path.join(seedDir, 'categories.json');
  const companiesFile = path.join(seedDir, 'companies.json');
  const categories = validateCategories(readJson(categoriesFile), 'categories', failIn(categoriesFile));
  const companies = validateCompanies(
    readJson(companiesFile),
    'companies',
    new Set(categories.map((c) => c.slug)),
    categoriesFile,
    failIn(companiesFile),
  );
  return { categories, companies };
}

/** Reads and validates feedback-projects.json. */
export function loadFeedbackProjects(seedDir: string = defaultSeedDir()): SeedFeedbackProject[] {
  const file = path.join(seedDir, 'feedback-projects.json');
  const fail = failIn(file);
  const seen = new Set<string>();
  return checkArray(readJson(file), 'projects', fail).map((item, i) => {
    const at = `[${i}]`;
    const obj = checkObject(item, at, ['slug', 'name', 'invitation', 'guidance', 'accepting', 'signedOnly'], fail);
    const slug = checkSlug(obj, 'slug', at, fail, 64);
    if (seen.has(slug)) fail(`${at}.slug`, `duplicate slug ${JSON.stringify(slug)}`);
    seen.add(slug);
    for (const key of ['accepting', 'signedOnly'] as const) {
      if (obj[key] !== undefined && typeof obj[key] !== 'boolean') fail(`${at}.${key}`, `must be a boolean, got ${describe(obj[key])}`);
    }
    return {
      slug,
      name: checkString(obj, 'name', at, fail, 200),
      invitation: checkString(obj, 'invitation', at, fail, 2000),
      guidance: checkString(obj, 'guidance', at, fail, 10000),
      accepting: (obj.accepting as boolean | undefined) ?? true,
      signedOnly: (obj.signedOnly as boolean | undefined) ?? false,
    };
  });
}

/** Key of the transaction-level advisory lock that serializes seeding across processes. */
const SEED_LOCK_KEY = 7262633101;

/**
 * Seeds the database. Categories and companies (source `curated`, no score) are inserted only on first start, when
 * both tables are empty: from `seedFile` when given, else from the default files. Feedback projects missing from the
 * database are created on every call; existing ones are never modified. Everything happens in one transaction, so
 * a second call (or a concurrent one from another process) inserts nothing. Data files are validated on every call.
 */
export async function seed(db: Db, options: SeedOptions = {}): Promise<SeedResult> {
  const seedDir = options.seedDir ?? defaultSeedDir();
  const data = options.seedFile ? loadSeedFile(path.resolve(options.seedFile)) : loadDefaultSeed(seedDir);
  const projects = loadFeedbackProjects(seedDir);

  const result = await db.prisma.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})::text AS locked`);
      const [categoryCount, companyCount] = await Promise.all([tx.category.count(), tx.company.count()]);
      let categories = 0;
      let companies = 0;
      const seeded = categoryCount === 0 && companyCount === 0;
      if (seeded) {
        categories = (await tx.category.createMany({ data: data.categories, skipDuplicates: true })).count;
        const ids = new Map((await tx.category.findMany({ select: { id: true, slug: true } })).map((c) => [c.slug, c.id]));
        companies = (
          await tx.company.createMany({
            data: data.companies.map((c) => ({
              name: c.name,
              website: c.website,
              domain: c.domain,
              categoryId: c.category ? (ids.get(c.category) ?? null) : null,
              source: 'curated' as const,
            })),
            skipDuplicates: true,
          })
        ).count;
      }
      const feedbackProjects = projects.length
        ? (await tx.feedbackProject.createMany({ data: projects, skipDuplicates: true })).count
        : 0;
      return { categories, companies, seeded, feedbackProjects };
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
  const logger = options.logger;
  if (result.seeded) {
    logger?.info(
      { ...result, source: options.seedFile ?? seedDir },
      `seeded ${result.categories} categories and ${result.companies} companies`,
    );
  }
  if (result.feedbackProjects) logger?.info({ feedbackProjects: result.feedbackProjects }, 'created missing feedback projects');
  return result;
}
