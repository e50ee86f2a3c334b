// The order-statistic list under the live index (leaderboard/sorted-list.ts) against a plain sorted array: random
// loads, inserts and removes over thousands of elements (chunks split, empty and re-index), then every position,
// element and count agrees.
import fc from 'fast-check';
import { SortedList } from '../src/leaderboard/sorted-list';

const compare = (a: number, b: number) => a - b;

test('insert, remove, indexOf, at and countUpTo agree with a sorted array', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 3000 }),
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20_000 })), { minLength: 1, maxLength: 3000 }),
      fc.integer({ min: 0, max: 20_000 }),
      (initial, operations, probe) => {
        const list = new SortedList<number>(compare);
        const model = [...initial].sort(compare);
        list.load([...model]);
        for (const [insert, value] of operations) {
          const at = model.indexOf(value);
          if (insert && at < 0) {
            list.insert(value);
            model.push(value);
            model.sort(compare);
          } else if (!insert) {
            expect(list.remove(value)).toBe(at >= 0);
            if (at >= 0) model.splice(at, 1);
          }
        }
        expect(list.size).toBe(model.length);
        expect([...list]).toEqual(model);
        for (let i = 0; i < model.length; i += 7) {
          expect(list.at(i)).toBe(model[i]);
          expect(list.indexOf(model[i])).toBe(i);
        }
        expect(list.indexOf(-1)).toBe(-1);
        expect(list.countUpTo((v) => v - probe)).toBe(model.filter((v) => v <= probe).length);
      },
    ),
    { numRuns: 60, seed: 42 },
  );
});

test('chunks split under inserts into one place and disappear when emptied, positions staying right', () => {
  const list = new SortedList<number>(compare);
  const values = Array.from({ length: 5000 }, (_, i) => i * 2);
  for (const v of values) list.insert(v); // always into the last chunk: it splits every 256 inserts
  for (let i = 0; i < 2500; i++) list.insert(i * 4 + 1); // odd values in between: the middle chunks split
  const model = [...values, ...Array.from({ length: 2500 }, (_, i) => i * 4 + 1)].sort(compare);
  expect(model.map((_, i) => list.at(i))).toEqual(model);
  expect(model.map((v) => list.indexOf(v))).toEqual(model.map((_, i) => i));
  let seed = 3;
  const order = [...model].sort(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 3) - 1);
  for (const [k, v] of order.entries()) {
    expect(list.remove(v)).toBe(true);
    if (k % 500 === 0) {
      const rest = [...list];
      expect(rest.length).toBe(model.length - k - 1);
      expect(rest.map((_, i) => list.at(i))).toEqual(rest);
    }
  }
  expect(list.size).toBe(0);
  list.insert(7);
  expect([list.at(0), list.indexOf(7)]).toEqual([7, 0]);
});

test('a list that keeps each element\'s chunk on it finds every position by identity, also after splits and removals', () => {
  interface Box {
    value: number;
    chunk: Box[] | null;
  }
  let lookups = 0;
  const slot = { get: (b: Box) => b.chunk, set: (b: Box, c: Box[]) => void (b.chunk = c) };
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 20_000 }), { maxLength: 2000 }),
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20_000 })), { minLength: 1, maxLength: 3000 }),
      (initial, operations) => {
        const boxes = new Map<number, Box>();
        const box = (value: number) => boxes.get(value) ?? boxes.set(value, { value, chunk: null }).get(value)!;
        const list = new SortedList<Box>((a, b) => {
          lookups++;
          return a.value - b.value;
        }, slot);
        const present = new Set(initial);
        list.load([...initial].sort((a, b) => a - b).map(box));
        for (const [insert, value] of operations) {
          if (insert && !present.has(value)) {
            list.insert(box(value));
            present.add(value);
          } else if (!insert && present.delete(value)) list.remove(box(value));
        }
        const model = [...present].sort((a, b) => a - b);
        lookups = 0;
        model.forEach((value, i) => expect(list.indexOf(box(value))).toBe(i));
        expect(lookups).toBe(0); // found by identity, not by comparisons
        for (const [, value] of operations) if (!present.has(value)) expect(list.indexOf(box(value))).toBe(-1);
      },
    ),
    { numRuns: 40, seed: 3 },
  );
});
