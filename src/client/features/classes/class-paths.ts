/** The teacher's class screens (decision 031, "Class screens"). */
export const CLASSES_PATH = '/dashboard/teacher/classes';
export const classPath = (id: string) => `${CLASSES_PATH}/${id}`;
/** The class's gradebook (decision 062). */
export const gradebookPath = (id: string) => `${classPath(id)}/gradebook`;
