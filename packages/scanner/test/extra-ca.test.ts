// FetchPolicy.extraCaPem (the server's SCAN_EXTRA_CA_FILE, for tests and the census bench): a site whose certificate
// is signed by an authority Node does not know fails the scan as it always did; given that authority, the same scan
// verifies and finishes, and a certificate for another host name still fails (verification is not switched off).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { scan } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/** A throwaway authority and a certificate for `names`, signed by it (openssl, P-256, valid two days). */
function makeCa(names: string[]): { caPem: string; certPem: string; keyPem: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-extra-ca-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ARL extra-ca test authority',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
    run('req', ...ec, '-keyout', 'site.key', '-out', 'site.csr', '-subj', `/CN=${names[0]}`);
    fs.writeFileSync(path.join(dir, 'ext.cnf'), `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\nextendedKeyUsage=serverAuth\n`);
    run('x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'site.pem', '-days', '2', '-extfile', 'ext.cnf');
    const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
    return { caPem: read('ca.pem'), certPem: read('site.pem'), keyPem: read('site.key') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('FetchPolicy.extraCaPem', () => {
  const ca = makeCa(['*.extra-ca.test']);
  let server: https.Server;
  let port: number;

  beforeAll(async () => {
    server = https.createServer({ cert: ca.certPem, key: ca.keyPem }, (req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1><p>Hello.</p></body></html>');
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const policy = (extra: { extraCaPem?: string }) => ({
    allowPrivateNetworks: true,
    ...ROOMY_DEADLINES,
    lookup: async () => [{ address: '127.0.0.1', family: 4 as const }],
    ...extra,
  });

  it('fails the scan of a site signed by an unknown authority without the option', async () => {
    const result = await scan(`https://shop.extra-ca.test:${port}/`, { fetchPolicy: policy({}) });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/certificate|TLS/i);
  });

  it('finishes the same scan when the authority is given', async () => {
    const result = await scan(`https://shop.extra-ca.test:${port}/`, { fetchPolicy: policy({ extraCaPem: ca.caPem }) });
    expect(result.cause).toBeNull();
    expect(result.ending).toBe('finished');
  });

  it('still checks the host name against the certificate when the authority is given', async () => {
    const result = await scan(`https://shop.other.test:${port}/`, { fetchPolicy: policy({ extraCaPem: ca.caPem }) });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/certificate|TLS|altnames/i);
  });
});
