import { csvBlob, csvFileName, rosterToCsv } from '#shared/roster-import';
import type { RosterExportEntry } from '#shared/roster-import';
import { downloadBlob } from '../../lib/download-file.ts';

/**
 * Saves a class's roster as the import's CSV (decision 034). Its own module, loaded when Export
 * is pressed: the CSV writer comes with the roster import's parser and schemas (about 3 kB), which
 * the class page does not need to show (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
 */
export function downloadRosterCsv(roster: readonly RosterExportEntry[], className: string, fileWord: string) {
  downloadBlob(csvBlob(rosterToCsv(roster)), csvFileName(className, fileWord));
}
