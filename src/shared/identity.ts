/**
 * Identity keys (decision 024): when two spellings name the same teacher email, student roll
 * number, student email or class. Every unique index (on the tables' *_key columns) and every
 * look-up compares keys made here and nowhere else; the database never folds case itself, since
 * PostgreSQL's lower() follows the database's locale (PGlite's lowers ASCII only) and
 * JavaScript's toLowerCase() is not a case fold ('ß' stays, 'İ' becomes 'i' + U+0307).
 *
 * The rule is Unicode's NFKC_Casefold (UAX #44; what UAX #31 recommends for matching
 * identifiers without case), with three additions for names people type:
 * - all four Turkish i's are one letter: 'I', 'i', 'İ' and 'ı' (so 'İPEK', 'ipek' and the
 *   'i̇pek' JavaScript lower-cases 'İpek' to are one roll number; the dot of i is the letter's own);
 * - white space is trimmed and every run inside becomes one space;
 * - that is all: no transliteration, no confusable skeletons ('а' Cyrillic stays apart from 'a').
 * Compatibility characters are not distinct: 'Ⅻ' is 'xii', 'ｆｕｌｌ' is 'full', 'ǅ' is 'dž'.
 */

// Invisible by definition (zero-width spaces and joiners, soft hyphen, bidi marks, variation
// selectors, Hangul fillers): NFKC_Casefold removes them, so a name cannot hide one.
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
// A combining dot above on a soft-dotted letter (i, j, ...) repeats the letter's own dot.
const REDUNDANT_DOT = /(\p{Soft_Dotted}\p{Mn}*?)\u0307/gu;
const WHITE_SPACE_RUN = /\s+/gu;
const CHEROKEE = /\p{Script=Cherokee}/u;
/** Every string tried settles in two passes (the second confirms); the bound keeps a surprise finite. */
const MAX_PASSES = 4;

/**
 * The full case fold of one character, from the engine's own case tables. Lower, upper, lower
 * reaches Unicode's fold where lower-casing alone stops short: 'ẞ' → 'ß' → 'SS' → 'ss',
 * 'ſ' → 'S' → 's', 'ς' → 'Σ' → 'σ' (one character at a time, so no final-sigma rule), and
 * 'ı' → 'I' → 'i' (the Turkish rule above). Cherokee folds to its capitals, as Unicode's
 * CaseFolding.txt does (its small letters came later).
 */
function foldCharacter(character: string): string {
  if (CHEROKEE.test(character)) return character.toUpperCase();
  return character.toLowerCase().toUpperCase().toLowerCase();
}

function keyPass(text: string): string {
  let folded = '';
  for (const character of text.normalize('NFKD')) folded += foldCharacter(character);
  return folded
    .normalize('NFKD')
    .replace(DEFAULT_IGNORABLE, '')
    .replace(REDUNDANT_DOT, '$1')
    .replace(WHITE_SPACE_RUN, ' ')
    .trim()
    .normalize('NFKC');
}

/**
 * The identity key of a roll number or a class name (and of an email's local part): equal
 * keys, same identity. Idempotent: the key of a key is itself. Never shown to anyone; the
 * display value stays as the person typed it (NFC, trimmed).
 */
export function identityKey(text: string): string {
  let key = text;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const next = keyPass(key);
    if (next === key) break;
    key = next;
  }
  return key;
}

// Characters that would make the URL parser read a path, query, fragment, port, user or escape.
const NOT_IN_A_HOST = /[\s/?#@\\:%[\]]/u;

/**
 * An email's domain as DNS compares it: IDNA's UTS #46 mapping to ASCII, as the WHATWG URL
 * parser does it (browsers send the same punycode form from an email field: Chrome converts
 * 'bücher.de' to 'xn--bcher-kva.de' as it is typed). In a domain name 'ß' is not 'ss'.
 * Anything the parser refuses keeps its identity key.
 */
function domainKey(domain: string): string {
  if (domain === '' || NOT_IN_A_HOST.test(domain)) return identityKey(domain);
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return identityKey(domain);
  }
}

/** The identity key of an email address: the local part by identityKey, the domain as DNS compares it. */
export function emailKey(address: string): string {
  const text = address.normalize('NFKC').trim(); // a full-width '＠' is an '@'
  const at = text.lastIndexOf('@');
  if (at < 0) return identityKey(text);
  return `${identityKey(text.slice(0, at))}@${domainKey(text.slice(at + 1))}`;
}
