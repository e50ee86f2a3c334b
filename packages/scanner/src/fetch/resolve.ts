import { promises as dns } from 'node:dns';
import { GuardedFetchError } from './errors';
import { addressFamily, isIpLiteral, isPublicAddress, stripBrackets } from './address-policy';

export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export const defaultLookup: LookupFn = async (hostname) => {
  const all = await dns.lookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Resolves a hostname and returns the one address we will connect to. Every address must be public: a name that
 * answers both a public and a private address is refused, because we cannot know which one a retry would use.
 */
export async function resolvePublicAddress(
  hostname: string,
  options: { allowPrivateNetworks: boolean; lookup?: LookupFn },
  url: string,
): Promise<ResolvedAddress> {
  // The root label's dot ("localhost.") names the same host; judge it without, as the resolver would.
  const bare = stripBrackets(hostname).replace(/(?<=[^.])\.$/, '');
  if (isIpLiteral(bare)) {
    if (!options.allowPrivateNetworks && !isPublicAddress(bare)) {
      throw new GuardedFetchError('blocked_address', `${bare} is not a public address`, url);
    }
    return { address: bare, family: addressFamily(bare) };
  }
  let addresses: Array<{ address: string; family: 4 | 6 }>;
  try {
    addresses = await (options.lookup ?? defaultLookup)(bare);
  } catch (error) {
    throw new GuardedFetchError('dns', `The name ${bare} could not be resolved`, url, { cause: error });
  }
  if (!addresses || addresses.length === 0) {
    throw new GuardedFetchError('dns', `The name ${bare} has no addresses`, url);
  }
  if (!options.allowPrivateNetworks) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) throw new GuardedFetchError('blocked_address', `${bare} resolves to ${blocked.address}, which is not a public address`, url);
  }
  const first = addresses[0];
  return { address: first.address, family: first.family };
}
