// What "identical report" means: the same canonical JSON. Object keys are sorted (by UTF-16 code units, at every
// depth), no insignificant whitespace, strings exactly as sent (no Unicode normalization, no trimming), numbers as
// JavaScript prints them (so 1, 1.0 and 1e0 are one value). The whole body counts, `invite` and `metadata` included.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} is not JSON`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  // Built as text rather than as a new object so that a key like "__proto__" stays an ordinary key.
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** sha256 (hex) of the canonical JSON: the report's identity within its project. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
