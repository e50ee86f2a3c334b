// The trigram index answers exactly what a pass over every key with `includes` answers, whatever the posting lists'
// sizes (the candidates are narrowed by intersecting them before the string check).
import { intersect, SearchIndex } from '../src/leaderboard/search-index';

function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

test('intersect: the common values of two ascending lists, by merge and by binary search', () => {
  const rnd = random(7);
  for (let round = 0; round < 200; round++) {
    const pick = (n: number, range: number) => Int32Array.from(new Set(Array.from({ length: n }, () => Math.floor(rnd() * range)))).sort();
    const a = pick(1 + Math.floor(rnd() * 40), 500);
    const b = pick(1 + Math.floor(rnd() * (round % 2 ? 2000 : 40)), 500); // odd rounds: b much longer (binary search)
    const inB = new Set(b);
    expect(Array.from(intersect(a, b))).toEqual(Array.from(a).filter((v) => inB.has(v)));
  }
  expect(Array.from(intersect(new Int32Array(0), Int32Array.from([1, 2])))).toEqual([]);
});

test('search answers exactly the positions whose key includes the query', () => {
  const keys: string[] = [];
  for (let g = 0; g < 5000; g++) keys.push(`bench company ${g}\nbench-${g}.example`);
  keys.push('aaaa aaa\naaaa.example', 'company 12 company 12\nrepeat.example', 'x\nab', 'q\nxyz');
  const index = new SearchIndex(keys);
  const queries = ['company 1234', '1234.example', 'bench company 7', 'y 12', '12', 'a', 'aaa', 'aaaa', 'company 12 company', 'pany 4999', 'nothing', '99.ex', '\nbench-4', 'e', 'xyz', 'x\na', '\nab', 'ple', 'mpl', '499'];
  for (let g = 0; g < 300; g++) queries.push(`company ${(g * 7919) % 5000}`, `${(g * 7919) % 5000}.example`, `${g}`);
  for (const q of queries) {
    const expected = keys.flatMap((key, i) => (key.includes(q) ? [i] : []));
    expect({ q, found: Array.from(index.search(q)) }).toEqual({ q, found: expected });
  }
});

test('set keeps every posting list exact as keys appear, are renamed in place and are removed', () => {
  const rnd = random(11);
  const index = new SearchIndex();
  const keys: Array<string | null> = [];
  const word = () => ['alpha', 'beta', 'gamma', 'delta', 'company', 'bench'][Math.floor(rnd() * 6)];
  for (let step = 0; step < 3000; step++) {
    // Mostly renames of existing slots (an insert in the middle of a posting list), some new slots, some removals.
    const slot = rnd() < 0.2 || keys.length === 0 ? keys.length : Math.floor(rnd() * keys.length);
    const key = rnd() < 0.1 ? null : `${word()} ${Math.floor(rnd() * 300)}\n${word()}.example`;
    index.set(slot, key);
    keys[slot] = key;
    if (step % 100 === 99) index.trim(); // a trimmed list grows again on the next insert
  }
  // Three characters (the 4-grams that extend them, and keys that end with them: 'ple'), four, and more.
  for (const q of ['alpha 1', 'beta', 'pha 2', 'a.example', 'mma 29', 'company 7', 'ta\ngam', 'lta 10', 'pha', 'ple', '.ex', ' 29', 'mpl', 'zzz']) {
    const expected = keys.flatMap((key, i) => (key?.includes(q) ? [i] : []));
    expect({ q, found: Array.from(index.search(q)) }).toEqual({ q, found: expected });
  }
});
