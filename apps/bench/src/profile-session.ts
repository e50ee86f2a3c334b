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
