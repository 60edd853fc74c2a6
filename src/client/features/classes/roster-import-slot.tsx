import type { TeacherClass } from '#shared/classes';

/**
 * The roster toolbar's place for the CSV import's button (decision 031, "Rosters"; issue 19
 * point 6). The import is built apart: it mounts its button here and reads `entry` for the
 * class it imports into. Nothing until then.
 */
export function RosterImportSlot(_props: { entry: TeacherClass }) {
  return null;
}
