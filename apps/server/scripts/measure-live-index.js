// Per-change cost of the live index (src/leaderboard/live-index.ts), without a database: N synthetic companies loaded
// at once (the start-up path), then one company at a time changed as a scan's end changes it (new score, scan time
// and history row), and read back (a first page, a company's entry). Run after a build:
//   node scripts/measure-live-index.js [companies=100000] [changes=20000]
// Prints the load time, the mean (CPU and wall-clock) and p99 cost of one change, and the heap used. A measurement, not a test.
const { LiveIndex } = require('../dist/leaderboard/live-index');

const n = Number(process.argv[2] ?? 100_000);
const changes = Number(process.argv[3] ?? 20_000);
const DAY = 86_400_000;
const now = Date.parse('2026-11-26T12:00:00.000Z');
const categories = Array.from({ length: 12 }, (_, i) => ({ id: `cat-${i}`, name: `Category ${i}`, slug: `category-${i}` }));
let seed = 1;
const rnd = (k) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % k;
};
const companies = [];
const history = { weekAgo: new Map(), firstRecordedAt: new Map(), recent: new Map() };
for (let i = 0; i < n; i++) {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const scannedAt = new Date(now - rnd(14 * DAY));
  companies.push({
    id, name: `Bench Company ${i}`, website: `https://bench-${i}.example`, domain: `bench-${i}.example`,
    source: i % 10 === 9 ? 'community' : 'curated', category: rnd(5) ? categories[rnd(12)] : null,
    score: rnd(101), grade: 'C', scannedAt, summary: 's', latestScanId: null,
  });
  history.weekAgo.set(id, { score: rnd(101), recordedAt: new Date(now - 8 * DAY - rnd(DAY)) });
  history.firstRecordedAt.set(id, new Date(now - 30 * DAY));
}
global.gc?.();
let t = performance.now();
const index = LiveIndex.load(companies, history, new Date(now));
const loadMs = performance.now() - t;

const times = [];
const cpuBefore = process.cpuUsage();
for (let k = 0; k < changes; k++) {
  const c = companies[rnd(n)];
  const at = now + k;
  const then = history.weekAgo.get(c.id);
  const facts = {
    ...c, score: rnd(101), scannedAt: at, category: c.category,
    history: [[then.score, then.recordedAt.getTime()], [rnd(101), at]], firstRecordedAt: now - 30 * DAY,
  };
  t = performance.now();
  index.upsert(facts);
  times.push(performance.now() - t);
}
const cpu = process.cpuUsage(cpuBefore);
index.advance(new Date(now + changes));
t = performance.now();
const page = index.page('curated', 'score', 'desc', null, null, null, 50);
page.items.forEach((item) => index.entry(item, 'curated'));
const pageMs = performance.now() - t;
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(JSON.stringify({
  companies: n, loadMs: Math.round(loadMs), changes,
  // CPU time per change (on a busy machine wall-clock figures include waiting for a core).
  changeCpuMeanMs: +((cpu.user + cpu.system) / 1000 / changes).toFixed(4),
  changeMeanMs: +mean.toFixed(4), changeP99Ms: +times[Math.floor(times.length * 0.99)].toFixed(4), changeMaxMs: +times[times.length - 1].toFixed(3),
  sizesKept: index.size('all') === n && index.size('curated') === companies.filter((c) => c.source === 'curated').length,
  firstPageAfterChangesMs: +pageMs.toFixed(3), heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
}));
