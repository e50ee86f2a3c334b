// A certificate authority made at bench time and a wildcard certificate it signs, so the simulated internet is served
// over TLS the way the web is, and the worker trusts it through SCAN_EXTRA_CA_FILE alone (nothing is installed in the
// system's trust store). openssl (the CLI): Node can verify certificates but not issue them. ECDSA P-256, the key of
// most CDN edges; valid two days.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface TestCa {
  dir: string;
  /** The authority's certificate (SCAN_EXTRA_CA_FILE). */
  caFile: string;
  certFile: string;
  keyFile: string;
}

export function makeTestCa(dir: string, suffix: string): TestCa {
  fs.mkdirSync(dir, { recursive: true });
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ARL census bench authority',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
  run('req', ...ec, '-keyout', 'site.key', '-out', 'site.csr', '-subj', `/CN=*.${suffix}`);
  fs.writeFileSync(path.join(dir, 'ext.cnf'), `subjectAltName=DNS:*.${suffix},DNS:${suffix}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
  run('x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'site.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { dir, caFile: path.join(dir, 'ca.pem'), certFile: path.join(dir, 'site.pem'), keyFile: path.join(dir, 'site.key') };
}
