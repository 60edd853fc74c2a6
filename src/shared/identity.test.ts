import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emailKey, identityKey } from './identity.ts';

const nfd = (text: string) => text.normalize('NFD');

describe('identityKey (decision 024)', () => {
  // Each row: spellings a person may type for one identity, and the key they all share.
  it.each([
    ['Turkish capital dotted I', ['İpek', 'İPEK', 'ipek', 'IPEK', 'i\u0307pek', 'İpek'.toLowerCase()], 'ipek'],
    ['Turkish dotless ı', ['ırmak', 'IRMAK', 'irmak'], 'irmak'],
    ['German sharp s', ['Straße', 'STRASSE', 'strasse', 'STRAẞE', 'Strasse'], 'strasse'],
    ['titlecase digraph', ['ǅemal', 'ǄEMAL', 'ǆemal', 'DŽemal', 'džemal'], 'džemal'],
    ['digraph alone', ['Ǆ', 'ǅ', 'ǆ', 'DŽ'], 'dž'],
    ['Greek with a tonos', ['Ωμέγα', 'ΩΜΈΓΑ', 'ωμέγα', nfd('Ωμέγα')], 'ωμέγα'],
    ['Greek final sigma', ['ΟΔΟΣ', 'οδος', 'οδοσ', 'Οδος'], 'οδοσ'],
    ['NFC and NFD é', ['école', nfd('école'), 'ÉCOLE', nfd('ÉCOLE')], 'école'],
    ['Cyrillic', ['Пётр', 'ПЁТР', 'пётр', nfd('Пётр')], 'пётр'],
    ['roman numeral (compatibility)', ['Ⅻ', 'ⅻ', 'XII', 'xii'], 'xii'],
    ['full-width letters (compatibility)', ['１０Ａ', '10A', '10a'], '10a'],
    ['ligature (compatibility)', ['ﬁsh', 'FISH', 'fish'], 'fish'],
    ['spaces around and inside', ['  10 A ', '10\u3000a', '10\u00a0A', '10 \t a'], '10 a'],
    ['invisible characters', ['ab', 'a\u200bb', 'a\u00adb', '\ufeffab'], 'ab'],
    ['Devanagari (combining signs)', ['विद्या', nfd('विद्या')], 'विद्या'],
    ['Cherokee (folds to capitals)', ['Ꭰꭰ', 'ꭰꭰ', 'ᎠᎠ'], 'ᎠᎠ'],
  ])('%s: one key', (_, spellings, key) => {
    for (const spelling of spellings) expect([spelling, identityKey(spelling)]).toEqual([spelling, key]);
  });

  it('keeps apart what only looks alike or differs in letters', () => {
    const distinct = ['a', 'а' /* Cyrillic */, 'ä', 'ae', 'o', 'ö', 'oe', '10a', '10b', '10 a', 'ss', 's'];
    expect(new Set(distinct.map(identityKey)).size).toBe(distinct.length);
  });

  it('is a key of one character for every code point: changed exactly when NFKC_Casefold changes it', () => {
    // The engine's own Unicode property, so this holds whatever Unicode version Node carries.
    const changesWhenFolded = /\p{Changes_When_NFKC_Casefolded}/u;
    const differences: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue; // surrogates are not characters
      const character = String.fromCodePoint(codePoint);
      if ((identityKey(character) !== character) !== changesWhenFolded.test(character))
        differences.push(codePoint.toString(16));
    }
    // Ours beyond the standard: white space alone trims to nothing, and ı is i.
    expect(differences).toEqual(['9', 'a', 'b', 'c', 'd', '20', '131', '1680', '2028', '2029']);
  });

  it('gives a character, its capital, its small letter and its decomposition one key, and keys are fixed points', () => {
    const interesting = /[\p{Changes_When_Casemapped}\p{Changes_When_NFKC_Casefolded}\p{Soft_Dotted}\p{White_Space}]/u;
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (!interesting.test(character)) continue;
      const key = identityKey(character);
      const variants = [character.toUpperCase(), character.toLowerCase(), nfd(character), key];
      for (const variant of variants) {
        if (identityKey(variant) !== key) expect([codePoint.toString(16), variant, identityKey(variant)]).toBe(key);
      }
    }
  });

  it('holds for any text: idempotent, blind to case and to normalisation form', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    fc.assert(
      fc.property(text, (value) => {
        const key = identityKey(value);
        expect(identityKey(key)).toBe(key);
        expect(identityKey(value.toUpperCase())).toBe(key);
        expect(identityKey(value.toLowerCase())).toBe(key);
        expect(identityKey(nfd(value))).toBe(key);
        expect(identityKey(value.normalize('NFKC'))).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('emailKey', () => {
  it('folds the local part by identityKey and compares the domain as DNS does', () => {
    for (const spelling of ['İpek@Bücher.DE', 'ipek@bücher.de', 'IPEK@xn--bcher-kva.de', ' ipek＠BÜCHER．DE '])
      expect([spelling, emailKey(spelling)]).toEqual([spelling, 'ipek@xn--bcher-kva.de']);
    expect(emailKey('Straße@school.example')).toBe(emailKey('STRASSE@SCHOOL.EXAMPLE'));
    // In a domain name 'ß' is not 'ss' (IDNA 2008): two domains, two addresses.
    expect(emailKey('a@straße.de')).not.toBe(emailKey('a@strasse.de'));
  });

  it('never lets the URL parser read a path, a fragment or a port into the domain', () => {
    for (const address of ['a@b.de#x', 'a@b.de/x', 'a@b.de:80', 'a@b%2ede', 'a@user@b.de', 'no address'])
      expect(emailKey(address)).toBe(address);
  });

  it('is idempotent and blind to case for any address', () => {
    const address = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.domain());
    fc.assert(
      fc.property(address, ([local, domain]) => {
        const key = emailKey(`${local}@${domain}`);
        expect(emailKey(key)).toBe(key);
        expect(emailKey(`${local}@${domain}`.toUpperCase())).toBe(key);
      }),
      { numRuns: 500 },
    );
  });
});
