// A git merge driver for the translation catalogs (decision 054): two branches that each added
// messages to a messages.po both keep theirs. Entries are united by msgctxt + msgid; where both
// sides have one, the translated side wins (ours first). `npm run i18n:extract` then orders and
// cleans the result. Set up with `npm run i18n:merge-driver`; .gitattributes names it for *.po.
// Usage (git runs it): node scripts/po-merge-driver.mjs %O %A %B
import { readFileSync, writeFileSync } from 'node:fs';

function entries(text) {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((block) => block.trim())
    .filter(Boolean);
}

function field(block, name) {
  const lines = block.split(/\r?\n/).filter((line) => !line.startsWith('#'));
  const start = lines.findIndex((line) => line.startsWith(`${name} `));
  if (start === -1) return undefined;
  const parts = [lines[start].slice(name.length + 1)];
  for (let i = start + 1; i < lines.length && lines[i].startsWith('"'); i++) parts.push(lines[i]);
  return parts.map((part) => JSON.parse(part)).join('');
}

const key = (block) => `${field(block, 'msgctxt') ?? ''}\u0004${field(block, 'msgid') ?? ''}`;
const translated = (block) => Boolean(field(block, 'msgstr'));

const [, , , oursPath, theirsPath] = process.argv;
const ours = entries(readFileSync(oursPath, 'utf8'));
const theirs = entries(readFileSync(theirsPath, 'utf8'));
const merged = new Map();
for (const block of [...ours, ...theirs]) {
  const id = key(block);
  const kept = merged.get(id);
  if (kept === undefined || (!translated(kept) && translated(block))) merged.set(id, block);
}
writeFileSync(oursPath, `${[...merged.values()].join('\n\n')}\n`);
