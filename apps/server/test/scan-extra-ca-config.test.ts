// SCAN_EXTRA_CA_FILE (tests and benches only): unset by default; a readable PEM file of certificates is read into the
// scans' fetch policy; a missing file or one without a certificate stops the start-up with the variable named.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../src/config';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-extra-ca-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('SCAN_EXTRA_CA_FILE is unset by default and read when it names a PEM file', () => {
  const base = { DATA_DIR: dir };
  expect(loadConfig(base).scan.extraCaPem).toBeNull();
  // A certificate's shape is enough here: the scanner's extra-ca test proves the trust itself.
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  fs.writeFileSync(path.join(dir, 'ca.pem'), pem);
  expect(loadConfig({ ...base, SCAN_EXTRA_CA_FILE: path.join(dir, 'ca.pem') }).scan.extraCaPem).toBe(pem);
  fs.writeFileSync(path.join(dir, 'not.pem'), 'hello');
  expect(() => loadConfig({ ...base, SCAN_EXTRA_CA_FILE: path.join(dir, 'not.pem') })).toThrow(/SCAN_EXTRA_CA_FILE must be a PEM file/);
  expect(() => loadConfig({ ...base, SCAN_EXTRA_CA_FILE: path.join(dir, 'missing.pem') })).toThrow(/SCAN_EXTRA_CA_FILE cannot be read/);
});
