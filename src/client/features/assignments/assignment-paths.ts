/** The teacher's assignment screens (decision 063). */
export const ASSIGNMENTS_PATH = '/dashboard/teacher/assignments';
export const NEW_ASSIGNMENT_PATH = `${ASSIGNMENTS_PATH}/new`;
export const assignmentPath = (id: string) => `${ASSIGNMENTS_PATH}/${encodeURIComponent(id)}`;
export const editAssignmentPath = (id: string) => `${assignmentPath(id)}/edit`;
/** The list of one class's assignments, and the editor with that class already chosen. */
export const classAssignmentsPath = (classId: string) => `${ASSIGNMENTS_PATH}?class=${encodeURIComponent(classId)}`;
export const newAssignmentForClassPath = (classId: string) =>
  `${NEW_ASSIGNMENT_PATH}?class=${encodeURIComponent(classId)}`;
