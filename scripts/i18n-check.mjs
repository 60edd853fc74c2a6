// `npm run i18n:check` (decision 054): updates the catalogs from the code (lingui extract), then
// fails, listing them, when a shipped locale's catalog has no translation of a message the code uses.
// English is the source (its catalog is the code's own text); the pseudo-locale is generated.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TRANSLATED_LOCALES = ['es', 'ar'];
const root = fileURLToPath(new URL('..', import.meta.url));

execFileSync('npx', ['lingui', 'extract', '--clean'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

/** The entries of a PO file with an empty msgstr, as their msgid (and msgctxt). */
export function untranslated(po) {
  const missing = [];
  for (const entry of po.split(/\r?\n\s*\r?\n/)) {
    const lines = entry.split(/\r?\n/).filter((line) => !line.startsWith('#'));
    const field = (name) => {
      const start = lines.findIndex((line) => line.startsWith(`${name} `));
      if (start === -1) return undefined;
      const parts = [lines[start].slice(name.length + 1)];
      for (let i = start + 1; i < lines.length && lines[i].startsWith('"'); i++) parts.push(lines[i]);
      return parts.map((part) => JSON.parse(part)).join('');
    };
    const id = field('msgid');
    // The header (msgid "") is no message.
    if (!id) continue;
    if (!field('msgstr')) {
      const context = field('msgctxt');
      missing.push(context ? `${id} (${context})` : id);
    }
  }
  return missing;
}

let failures = 0;
for (const locale of TRANSLATED_LOCALES) {
  const file = `src/client/locales/${locale}/messages.po`;
  const missing = untranslated(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
  failures += missing.length;
  if (missing.length > 0) {
    console.error(`${file}: ${missing.length} message(s) not translated:`);
    for (const id of missing) console.error(`  ${JSON.stringify(id)}`);
  }
}
if (failures > 0) process.exit(1);
console.log(`i18n:check: every message the code uses is translated in ${TRANSLATED_LOCALES.join(', ')}`);
