import fs from 'node:fs';
import path from 'node:path';
import { CHECK_CATALOG } from '../src/checks/catalog';
import { CATALOG_CHANGELOG } from '../src/checks/changelog';
import { CHECK_SOURCES } from '../src/checks/sources';
import { catalogMarkdown } from '../src/cli/catalog-markdown';
import { CATALOG_VERSION } from '../src/version';

describe('catalog changelog and docs', () => {
  it('the newest changelog release is the catalog version, and every entry names a check of the catalog', () => {
    expect(CATALOG_CHANGELOG[0].version).toBe(CATALOG_VERSION);
    const ids = new Set(CHECK_CATALOG.map((c) => c.id));
    for (const release of CATALOG_CHANGELOG) for (const change of release.changes) expect(ids.has(change.check) ? change.check : `unknown ${change.check}`).toBe(change.check);
  });

  it('each check is added at most once per release, and every entry cites a source', () => {
    for (const release of CATALOG_CHANGELOG) {
      const checks = release.changes.map((c) => c.check);
      expect(new Set(checks).size).toBe(checks.length);
      for (const change of release.changes) expect(change.source.length).toBeGreaterThan(5);
    }
  });

  it('every check of the catalog cites its source (a standard and section, or why the rule is our own), and no source names a check the catalog lacks', () => {
    const uncited = CHECK_CATALOG.filter((c) => typeof c.source !== 'string' || c.source.trim().length < 10).map((c) => c.id);
    expect(uncited).toEqual([]);
    // A rule of our own says so and why, rather than citing nothing.
    for (const c of CHECK_CATALOG) expect(c.source).toMatch(/RFC|draft-|§|MCP|llmstxt|schema\.org|WebMCP|A2A|SEP-|OpenAPI|sitemaps|x402|Protocol|Our own rule/);
    const ids = new Set(CHECK_CATALOG.map((c) => c.id));
    expect(Object.keys(CHECK_SOURCES).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('the README carries the catalog and changelog exactly as `npm run catalog` prints them', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain(catalogMarkdown().trim());
  });
});
