// The contract fuzz suite's own generator must not crash on the values it generates (issue 21, row 6: `npm run
// fuzz` died with URIError in 2 of 3 seeds when a cut fell inside a surrogate pair).
import { nulSuffixed } from './support/fuzz/requests';

test('a value is cut by code points before its NUL is appended, never inside a surrogate pair', () => {
  expect(nulSuffixed('a😀😀😀😀😀😀😀😀')).toBe(`${encodeURIComponent('a😀😀😀😀😀😀😀')}%00`);
  expect(nulSuffixed('x😀')).toBe(`x${encodeURIComponent('😀')}%00`);
  expect(nulSuffixed('')).toBe('%00');
});
