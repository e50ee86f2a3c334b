// `npm run demo -- --exit` (the built dist/demo.js in a child, PGlite in a temporary DATA_DIR) shows watch and act:
// a signed webhook delivery as a receiver got it, verified, and the badge of a scanned persona.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

test('the demo prints a verified webhook delivery with its Standard Webhooks headers, and a badge', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-demo-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.resolve(__dirname, '../dist/demo.js'), '--exit'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: '0', FEEDBACK_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      timeout: 170_000,
    });
    expect(stdout).toMatch(/Webhook: subscription [0-9a-f-]{36} of exemplary-co\.test -> http:\/\/127\.0\.0\.1:\d+\/webhook/);
    expect(stdout).toMatch(/\d+ deliveries received; the first, as received \(signature verified \(standardwebhooks\)\)/);
    expect(stdout).toMatch(/^ {2}webhook-id: [0-9a-f-]{36}$/m);
    expect(stdout).toMatch(/^ {2}webhook-timestamp: \d{10}$/m);
    expect(stdout).toMatch(/^ {2}webhook-signature: v1,[A-Za-z0-9+/]{43}=$/m);
    expect(stdout).toMatch(/^ {2}\{"type":"(scan\.ended|score\.changed|grade\.changed)".*"domain":"exemplary-co\.test"/m);
    expect(stdout).toMatch(/Badge \(200, image\/svg\+xml; charset=utf-8, ETag "[^"]+"\)/);
    expect(stdout).toMatch(/title: exemplary-co\.test agent readiness: score \d+ of 100, grade (A\+|A|B)/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
