// A CPU profile of a stretch of this process (node:inspector), written to BENCH_PROFILE_DIR for profile-summary.
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';

export async function startProfile(): Promise<{ stop(name: string): Promise<string> }> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop(name) {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      session.disconnect();
      const file = path.join(process.env.BENCH_PROFILE_DIR ?? os.tmpdir(), `${name}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * What is alive on the heap, by the function that allocated it (the sampling heap profiler: live objects only,
 * sampled every 32 KB). Started when the process starts (BENCH_HEAP_SAMPLING=1), so the start-up load is included;
 * `summary` lists the allocating functions holding the most, and each package's share.
 */
export async function startHeapSampling(): Promise<{ summary(top?: number): Promise<string> }> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 32768 });
  return {
    async summary(top = 30) {
      global.gc?.();
      const { profile } = (await post('HeapProfiler.getSamplingProfile')) as { profile: { head: SamplingNode } };
      const byFrame = new Map<string, number>();
      let total = 0;
      const walk = (node: SamplingNode, stack: string[]) => {
        const { functionName, url, lineNumber } = node.callFrame;
        const here = `${functionName || '(anonymous)'} ${url.replace(/^file:\/\/\/work\/[^/]+\//, '').replace(/.*node_modules\//, '')}:${lineNumber + 1}`;
        const frames = [...stack, here].slice(-3);
        if (node.selfSize > 0) {
          total += node.selfSize;
          const key = frames.join(' < ');
          byFrame.set(key, (byFrame.get(key) ?? 0) + node.selfSize);
        }
        for (const child of node.children) walk(child, frames);
      };
      walk(profile.head, []);
      const mb = (n: number) => (n / 1048576).toFixed(0).padStart(6);
      const lines = [...byFrame].sort((a, b) => b[1] - a[1]).slice(0, top).map(([frame, size]) => `${mb(size)} MB  ${frame.split(' < ').reverse().join(' < ')}`);
      return [`live heap sampled: ${mb(total)} MB`, ...lines].join('\n');
    },
  };
}
