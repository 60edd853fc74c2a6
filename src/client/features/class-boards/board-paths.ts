/** The class board's screen (issue 35), under each role's dashboard: a small module the class pages link with. */
export const teacherBoardPath = (classId: string) => `/dashboard/teacher/classes/${classId}/board`;
export const studentBoardPath = (classId: string) => `/dashboard/student/classes/${classId}/board`;
export const boardPathFor = (role: 'teacher' | 'student', classId: string) =>
  role === 'teacher' ? teacherBoardPath(classId) : studentBoardPath(classId);
