// The one door for what a scanned site says about itself (issue 40): the shapes an attacker would put in a
// <title> or og:site_name, each with the plain text that must come out.
import { cleanSiteText, SITE_TEXT_MAX_LENGTH } from '../src';

describe('cleanSiteText', () => {
  it.each([
    ['a bell (U+0007)', 'Bell\u0007 Co', 'Bell Co'],
    ['a right-to-left override (U+202E)', 'Evil\u202Emoc.liam', 'Evilmoc.liam'],
    ['bidi embeddings, isolates and marks', '\u202AA\u202B\u202C\u2066B\u2069\u200E\u200F\u061C', 'AB'],
    ['a zero-width space, joiner and no-break (U+200B, U+200D, U+FEFF)', 'Zero\u200Bwi\u200Ddth\uFEFF', 'Zerowidth'],
    ['C1 controls and DEL', 'A\u0085B\u007FC\u009BD', 'A BCD'],
    ['a soft hyphen and a private-use character', 'Ac\u00ADme\uE000', 'Acme'],
    ['a lone surrogate', 'Acme \uD800Co', 'Acme Co'],
    ['tabs, line breaks and no-break spaces', ' \tAcme\r\n\u00A0 Corp\u2028Ltd\u3000', 'Acme Corp Ltd'],
    ['a leading tab before a formula (left for the CSV writer to neutralise)', '\t=1+1', '=1+1'],
    ['decomposed accents (NFC)', 'Cafe\u0301 Ü', 'Café Ü'],
    ['words in other scripts and emoji', '株式会社 Ärzte 🚀', '株式会社 Ärzte 🚀'],
    ['markup (escaped by each output, not here)', '# <img src=x onerror=alert(1)>', '# <img src=x onerror=alert(1)>'],
  ])('%s', (_what, input, expected) => {
    expect(cleanSiteText(input)).toBe(expected);
  });

  it('caps the length in code points and never splits a surrogate pair', () => {
    expect(cleanSiteText('W'.repeat(200))).toBe('W'.repeat(SITE_TEXT_MAX_LENGTH));
    const emoji = cleanSiteText('🚀'.repeat(200))!;
    expect(Array.from(emoji)).toHaveLength(SITE_TEXT_MAX_LENGTH);
    expect(emoji).toBe('🚀'.repeat(SITE_TEXT_MAX_LENGTH));
    expect(cleanSiteText(`${'a'.repeat(119)} b`)).toBe('a'.repeat(119));
  });

  it('gives null when nothing visible is left', () => {
    for (const empty of [null, undefined, '', '   ', '\u200B\u202E\u0007', '\t\r\n']) expect(cleanSiteText(empty)).toBeNull();
  });
});
