// `--resolve NAME=ADDRESS` (repeatable; NAME may be `*.suffix`): pins hostnames to addresses for the scanner, like
// curl's --resolve. For staging setups and the process tests, which point scans at the sandbox personas on
// loopback; addresses still pass the scanner's address policy (private ones need SCAN_ALLOW_PRIVATE_NETWORKS=true).
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import type { FetchPolicy } from '@arl/scanner';

export function parseResolveFlags(argv: string[]): Pick<FetchPolicy, 'lookup'> {
  const rules: Array<{ name: string; wildcard: boolean; address: string }> = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = arg === '--resolve' ? argv[++i] : arg.startsWith('--resolve=') ? arg.slice('--resolve='.length) : undefined;
    if (value === undefined) continue;
    const match = /^([^=]+)=(.+)$/.exec(value);
    if (!match || !isIP(match[2])) throw new Error(`--resolve expects NAME=ADDRESS (got ${JSON.stringify(value)})`);
    const name = match[1].toLowerCase();
    rules.push({ name: name.replace(/^\*\./, ''), wildcard: name.startsWith('*.'), address: match[2] });
  }
  if (rules.length === 0) return {};
  return {
    async lookup(hostname) {
      const host = hostname.toLowerCase();
      const rule = rules.find((r) => (r.wildcard ? host.endsWith(`.${r.name}`) : host === r.name));
      if (!rule) {
        const all = await dns.lookup(hostname, { all: true, verbatim: true });
        return all.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
      }
      return [{ address: rule.address, family: isIP(rule.address) === 6 ? 6 : 4 }];
    },
  };
}
