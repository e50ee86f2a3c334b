// A company list as the import reads it (census/list-file.ts), in process and without a database: what a scan may
// never reach is refused by the scanner's own rule (an address literal judged as the scanner judges it, `localhost`
// and `*.localhost` by name, no DNS), input that is not UTF-8 text is named as such without echoing its bytes, and an
// empty file is said to be empty. The CLI's exit codes for the same files: companies-cli.test.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { unreachableDomain } from '../src/census/domain';
import { readCompanyList, UnreadableList, type ListEntry, type ListRules } from '../src/census/list-file';
import { csvRow } from '../src/text/csv';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-census-list-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const at = path.join(workDir, name);
  fs.writeFileSync(at, content);
  return at;
}

const rules = (allowPrivateNetworks: boolean): ListRules => ({ categories: new Map(), defaultCategoryId: null, anyPort: allowPrivateNetworks, allowPrivateNetworks, top: null });

async function read(file: string, allowPrivateNetworks = false): Promise<ListEntry[]> {
  const entries: ListEntry[] = [];
  for await (const entry of readCompanyList(file, rules(allowPrivateNetworks))) entries.push(entry);
  return entries;
}

/** What a reader of a message sees: printable ASCII, nothing of the file's raw bytes. */
const PRINTABLE = /^[\x20-\x7e]+$/;

// Every shape the issue found accepted, and those refused already (they stay refused, for the reason they were).
const HOSTS = [
  'domain', // 1
  '127.0.0.1', // 2
  '10.0.0.5', // 3
  'localhost', // 4
  '[::1]', // 5
  '169.254.169.254', // 6
  'https://api.localhost/', // 7
  'LOCALHOST.', // 8
  'http://192.168.1.1:8080/admin', // 9
  '[::ffff:127.0.0.1]', // 10
  '[fe80::1]', // 11
  '0x7f000001', // 12: refused already (the URL parser reads it as 127.0.0.1)
  '2130706433', // 13: refused already
  'metadata.google.internal', // 14: refused already
  'example.com', // 15: accepted
  '8.8.8.8', // 16: a public address is accepted
  '[2606:4700::1]', // 17: so is a public IPv6 one
];

test('what no scan may reach is refused by the scanner\'s rule, unless private scans are allowed', async () => {
  const list = write('hosts.csv', `${HOSTS.join('\n')}\n`);
  const refusals = (await read(list)).map((e) => (e.kind === 'refused' ? `line ${e.line}: ${e.reason}` : `line ${e.row.line}: ${e.row.domain}`));
  const blocked = (host: string) => `${host} is not a public address: scans reach public addresses only (SCAN_ALLOW_PRIVATE_NETWORKS allows private, loopback and link-local ones, for tests and demos)`;
  const local = (host: string) => `${host} names this machine (localhost): scans reach public addresses only (SCAN_ALLOW_PRIVATE_NETWORKS allows private, loopback and link-local ones, for tests and demos)`;
  expect(refusals).toEqual([
    `line 2: ${blocked('127.0.0.1')}`,
    `line 3: ${blocked('10.0.0.5')}`,
    `line 4: ${local('localhost')}`,
    `line 5: ${blocked('::1')}`,
    `line 6: ${blocked('169.254.169.254')}`,
    `line 7: ${local('api.localhost')}`,
    `line 8: ${local('localhost')}`,
    `line 9: ${blocked('192.168.1.1')}`,
    `line 10: ${blocked('::ffff:7f00:1')}`,
    `line 11: ${blocked('fe80::1')}`,
    'line 12: "0x7f000001" is not a domain name',
    'line 13: "2130706433" is not a domain name',
    'line 14: metadata.google.internal is not a registrable domain: its scans are ranked under google.internal',
    'line 15: example.com',
    'line 16: 8.8.8.8',
    'line 17: 2606:4700::1',
  ]);
  // --prune must not remove a company whose line was refused for where it is: the domain travels with the refusal.
  expect((await read(list)).filter((e) => e.kind === 'refused' && e.domain !== null).map((e) => e.kind === 'refused' && e.domain)).toEqual([
    '127.0.0.1', '10.0.0.5', 'localhost', '::1', '169.254.169.254', 'api.localhost', 'localhost', '192.168.1.1', '::ffff:7f00:1', 'fe80::1',
  ]);

  // Tests and demos (SCAN_ALLOW_PRIVATE_NETWORKS): the same lines are companies.
  const allowed = (await read(list, true)).filter((e) => e.kind === 'row').map((e) => e.kind === 'row' && e.row.domain);
  expect(allowed).toEqual(['127.0.0.1', '10.0.0.5', 'localhost', '::1', '169.254.169.254', 'api.localhost', 'localhost', '192.168.1.1', '::ffff:7f00:1', 'fe80::1', 'example.com', '8.8.8.8', '2606:4700::1']);

  // A Tranco list is judged the same way.
  const tranco = await read(write('tranco-hosts.csv', '1,example.org\n2,127.0.0.1\n3,localhost\n'));
  expect(tranco.map((e) => e.kind)).toEqual(['row', 'refused', 'refused']);

  // The rule itself, for callers with a normalized domain (the CLI's add).
  expect(unreachableDomain('example.com', false)).toBeNull();
  expect(unreachableDomain('localhost', true)).toBeNull();
  expect(unreachableDomain('127.0.0.1', false)).toBe(blocked('127.0.0.1'));
  expect(unreachableDomain('deep.sub.localhost', false)).toBe(local('deep.sub.localhost'));
});

test('input that is not UTF-8 text is named as such, never echoed; an empty file is said to be empty', async () => {
  const utf16 = (text: string, bom: boolean, bigEndian = false) => {
    const le = Buffer.from(text, 'utf16le');
    const bytes = bigEndian ? Buffer.from(le).swap16() : le;
    return Buffer.concat([bom ? Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]) : Buffer.alloc(0), bytes]);
  };
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from('IHDR'), Buffer.alloc(64, 0xa5)]);
  const cases: Array<[string, Buffer | string, RegExp]> = [
    ['utf16le-bom.csv', utf16('domain,name\nexample.com,Example\n', true), /^the file is UTF-16 text \(it begins with a UTF-16 byte-order mark\), not UTF-8: save the list as UTF-8/],
    ['utf16be-bom.csv', utf16('domain,name\nexample.com,Example\n', true, true), /^the file is UTF-16 text \(it begins with a UTF-16 byte-order mark\), not UTF-8/],
    ['utf16le.csv', utf16('domain,name\nexample.com,Example\n', false), /^line 1 holds NUL bytes: the file is binary or UTF-16, not UTF-8 text/],
    // The PNG signature holds CR LF and LF: its first NUL is on the third line.
    ['image.png', png, /^line 3 holds NUL bytes: the file is binary or UTF-16, not UTF-8 text/],
    ['latin1.csv', Buffer.concat([Buffer.from('domain,name\nexample.com,Example\nbeispiel.de,M'), Buffer.from([0xfc]), Buffer.from('ller\n')]), /^line 3 is not UTF-8 text \(a byte sequence no UTF-8 decoder reads: a Latin-1 or Windows-1252 export\?\): save the list as UTF-8/],
    ['random.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 255 + 1)), /is not UTF-8 text/],
    ['empty.csv', '', /^the file is empty: a CSV list starts with a header naming a domain column; a Tranco list is rank,domain lines$/],
    ['blank.csv', '\uFEFF\n \n\r\n', /^the file is empty/],
  ];
  for (const [name, content, message] of cases) {
    const file = write(name, content);
    let error: unknown = null;
    const seen: ListEntry[] = [];
    try {
      for await (const entry of readCompanyList(file, rules(false))) seen.push(entry);
    } catch (err) {
      error = err;
    }
    expect({ name, error: error instanceof UnreadableList ? error.message : String(error) }).toEqual({ name, error: expect.stringMatching(message) });
    expect({ name, printable: PRINTABLE.test((error as Error).message) }).toEqual({ name, printable: true });
    // Nothing of a file that is not text was judged as a line (no "unknown column" with its bytes).
    if (name !== 'latin1.csv') expect({ name, seen }).toEqual({ name, seen: [] });
  }
  // A line too long to be a company (a file of one endless line is not read into memory whole).
  const endless = write('endless.csv', `domain\n${'a'.repeat(2 * 1024 * 1024)}`);
  await expect(read(endless)).rejects.toThrow(/^line 2 is longer than 1 MiB: this is not a company list$/);
});

test('what a refusal quotes of a line is shown with its invisible characters escaped', async () => {
  const list = write('invisible.csv', 'domain,na\u202eme\nexample.com,x\n');
  const [first] = await read(list);
  expect(first.kind).toBe('refused');
  const reason = first.kind === 'refused' ? first.reason : '';
  expect(reason).toContain('"na\\u202eme"');
  expect(reason).not.toContain('\u202e');
});

test('lines across the reader\'s 1 MiB chunks: a CRLF and a character split between two chunks read as written', async () => {
  // The header and lines of 32 bytes (a two-byte é in each name), CRLF: a chunk boundary at 1 MiB falls inside one.
  const header = 'domain,name\r\n';
  const line = (i: number) => `c${String(i).padStart(6, '0')}.example,Soci\u00e9t\u00e9 ${String(i).padStart(6, '0')}\r\n`;
  const count = 80_000;
  let text = header;
  for (let i = 0; i < count; i++) text += line(i);
  const bytes = Buffer.from(text, 'utf8');
  // Move the boundary onto a CR LF pair, then onto an é, by padding the header's name column with spaces.
  for (const target of ['\r'.charCodeAt(0), 0xc3]) {
    const at = bytes.indexOf(target, (1 << 20) - 64);
    const pad = (1 << 20) - 1 - at;
    const padded = Buffer.concat([Buffer.from(`domain,name${' '.repeat(pad)}\r\n`), bytes.subarray(header.length)]);
    expect(padded[(1 << 20) - 1]).toBe(target);
    const entries = await read(write(`chunks-${target}.csv`, padded));
    expect(entries.length).toBe(count);
    expect(entries.every((e, i) => e.kind === 'row' && e.row.line === i + 2 && e.row.domain === `c${String(i).padStart(6, '0')}.example` && e.row.name === `Soci\u00e9t\u00e9 ${String(i).padStart(6, '0')}`)).toBe(true);
  }
});

test('a `companies list` CSV reads back as written: the single quote the CSV writer puts before a formula comes off', async () => {
  const names = ['=HYPERLINK("http://attacker.test","click")', '@SUM(1+1)', "-2+3+cmd|' /C calc'!A0", "'quoted' on purpose", 'Plain, Inc.'];
  const file = write('listed.csv', csvRow(['domain', 'name']) + names.map((name, i) => csvRow([`listed-${i}.example`, name])).join(''));
  const entries = await read(file);
  expect(entries.map((e) => (e.kind === 'row' ? e.row.name : e))).toEqual(names);
});
