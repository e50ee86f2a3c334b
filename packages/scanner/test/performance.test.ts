import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

// Guards against concurrency bugs; the speed target (the exemplary persona under 1.5 s at 50 ms per response, which
// catches serial waterfalls) lives in `npm run bench` (the scanner part prints it met / NOT MET), never in a timed test.
// So the scans here get deadlines far beyond the normal (ROOMY_DEADLINES): CI runs this file beside the server's two Jest workers on 2
// cores, where 44 concurrent scans took 39 s (issue 38), past the default 30 s scan budget and the old 30 s Jest
// timeout. A budget that runs out would change the verdicts these tests judge; what they prove is counted, not timed.
describe('scan performance', () => {
  it('scans the exemplary persona at 50 ms per response to the end it deserves', async () => {
    const sandbox = await startSandbox({ latencyMs: 50 });
    try {
      const policy = { allowPrivateNetworks: true, lookup: sandbox.lookup, ...ROOMY_DEADLINES };
      await scan(sandbox.urlOf('exemplary'), { fetchPolicy: policy });
      const result = await scan(sandbox.urlOf('exemplary'), { fetchPolicy: policy });
      expect({ ending: result.ending, grade: result.grade }).toEqual({ ending: 'finished', grade: 'A+' });
    } finally {
      await sandbox.close();
    }
  });

  it('runs 44 concurrent scans of mixed personas without a single unexpected ending', async () => {
    const sandbox = await startSandbox();
    try {
      const personas = [...PERSONAS, ...PERSONAS, ...PERSONAS, ...PERSONAS];
      const results = await Promise.all(personas.map((p) => scan(sandbox.urlOf(p.name), { fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup, ...ROOMY_DEADLINES } })));
      const unexpected = results.map((r, i) => ({ persona: personas[i].name, ending: r.ending, expected: personas[i].expected.ending, cause: r.cause })).filter((r) => r.ending !== r.expected);
      expect(unexpected).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
