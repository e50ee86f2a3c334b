import fc from 'fast-check';
import { excerpt } from '../src/checks/define';

/** Text built from the pieces evidence is made of: words, markdown links and images, emoji (surrogate pairs). */
const piece = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => s.replace(/[[\]()]/g, ' ')),
  fc.tuple(fc.string({ maxLength: 20 }), fc.webUrl()).map(([t, u]) => `[${t.replace(/[[\]()\n]/g, ' ')}](${u})`),
  fc.tuple(fc.string({ maxLength: 10 }), fc.webUrl()).map(([t, u]) => `![${t.replace(/[[\]()\n]/g, ' ')}](${u} "title")`),
  fc.constantFrom('😀', '𝄞', '👩‍💻', '🇫🇷'),
);
const LINK = /!?\[[^\]\n]*\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g;

describe('evidence excerpts', () => {
  it('never cut inside a markdown link or a UTF-16 surrogate pair, and are a prefix of the text', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = excerpt(text, max);
        if (out === text) return;
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(text.startsWith(kept)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(max);
        const last = kept.charCodeAt(kept.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        for (const m of text.matchAll(LINK)) {
          const start = m.index ?? 0;
          if (start < kept.length) expect(start + m[0].length).toBeLessThanOrEqual(kept.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the old cut fell inside the link and inside the emoji; the new one falls before them', () => {
    expect(excerpt(`See ${'x'.repeat(10)} [the docs](https://example.com/docs/agents)`, 30)).toBe(`See ${'x'.repeat(10)} …`);
    expect(excerpt('ab😀cd', 3)).toBe('ab…');
  });
});
