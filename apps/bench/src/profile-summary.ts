// Sums a V8 CPU profile's self time by function and by package, so a profile can be read in a terminal.
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
interface Profile { nodes: Node[]; startTime: number; endTime: number; samples?: number[]; timeDeltas?: number[] }

function packageOf(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/apps/server/')) return 'apps/server';
  if (url.includes('/packages/')) return url.replace(/.*\/packages\/([^/]+).*/, 'packages/$1');
  return url ? url.replace(/^.*\//, '') : '(native/gc/idle)';
}

export function summarizeProfile(profile: Profile, top = 25): string {
  const total = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0) || 1;
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/wt\/[^/]+\//, '')}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + hits);
    const pkg = packageOf(n.callFrame.url) || n.callFrame.functionName;
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + hits);
  }
  const pct = (h: number) => `${((h / total) * 100).toFixed(1)}%`.padStart(6);
  const lines = ['self time by package:'];
  for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`${pct(v)}  ${k}`);
  lines.push('self time by function:');
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${pct(v)}  ${k}`);
  return lines.join('\n');
}
