import { isIpLiteral, stripBrackets } from '../fetch/address-policy';
import { ABSENT_CODES, type TxtLookup } from '../fetch/dns-txt';
import type { AgentDnsLookup } from './artifacts';

/**
 * DNS agent discovery: the TXT record at _agent.<host> (Agent Identity and Discovery, AID v2.1 §2; draft-nemethi-dawn-aid).
 * The exact host is asked and no parent (§2.3 step 2, §2.4: clients MUST NOT walk up). DNS-AID
 * (draft-mozleywilliams-dnsop-dnsaid) publishes SVCB records under _agents instead; node:dns cannot ask for SVCB
 * (type 64), and a DNS client of our own would step around the host's resolver, so those are not looked up.
 */
export const AGENT_LABEL = '_agent';

export async function lookupAgentRecord(txt: TxtLookup | undefined, targetUrl: string): Promise<AgentDnsLookup> {
  const host = stripBrackets(new URL(targetUrl).hostname).replace(/\.$/, '').toLowerCase();
  const name = `${AGENT_LABEL}.${host}`;
  const none = { records: null, absent: false, error: null };
  if (isIpLiteral(host)) return { name, ...none, skipped: `${host} is an IP address, which has no DNS name to publish a record under` };
  if (!txt?.resolve) return { name, ...none, skipped: txt?.skip ?? 'no DNS resolver was available to this scan' };
  if (txt.specialUse?.(host)) return { name, ...none, skipped: `${host} is a special-use name (RFC 6761), which public DNS does not answer for` };
  try {
    const answers = await txt.resolve(name);
    // AID v2.1 §2.1: a record split into 255-octet strings is joined in order before it is read.
    return { name, records: answers.map((chunks) => chunks.join('')), absent: answers.length === 0, error: null, skipped: null };
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (typeof code === 'string' && ABSENT_CODES.has(code)) return { name, records: [], absent: true, error: null, skipped: null };
    const message = error instanceof Error ? error.message : String(error);
    return { name, records: null, absent: false, error: `${typeof code === 'string' ? `${code}: ` : ''}${message}`.slice(0, 200), skipped: null };
  }
}
