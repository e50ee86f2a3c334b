// The reference pages (/docs, built from openapi/*.yaml) name the local server where `npm start` listens: HOST's
// default 127.0.0.1 and each host's default port (issue 40: they said localhost, which may resolve to ::1 first and
// then finds nothing). The served YAML and JSON name the host they come from instead (http/documents.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import YAML from 'yaml';
import { loadConfig } from '../src/config';

test("each document's local server is where npm start listens by default", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-servers-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir });
    for (const [file, port] of [['leaderboard.yaml', config.port], ['feedback.yaml', config.feedbackPort]] as const) {
      const doc = YAML.parse(fs.readFileSync(path.resolve(__dirname, '../../../openapi', file), 'utf8')) as { servers: Array<{ url: string }> };
      expect({ file, url: doc.servers[0].url }).toEqual({ file, url: `http://${config.host}:${port}` });
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
