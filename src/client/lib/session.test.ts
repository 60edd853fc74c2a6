import { describe, expect, it } from 'vitest';
import { dashboardPathFor, loginPathFor, ownDashboardPathFor, readReturnTo } from './session.ts';

describe('dashboardPathFor and loginPathFor', () => {
  it('are the role’s dashboard and login', () => {
    expect(dashboardPathFor('teacher')).toBe('/dashboard/teacher');
    expect(dashboardPathFor('student')).toBe('/dashboard/student');
    expect(loginPathFor('teacher')).toBe('/auth/teacher/login');
    expect(loginPathFor('student')).toBe('/auth/student/login');
  });
});

describe('ownDashboardPathFor', () => {
  const search = '?meetingId=abc123&webcamEnabled=true&micEnabled=false';

  it('takes a teacher opening a student meet link to the teacher meet screen, with the same query', () => {
    expect(ownDashboardPathFor('teacher', '/dashboard/student/meet/abc123', search)).toBe(
      `/dashboard/teacher/meet/abc123${search}`,
    );
  });

  it('takes a student opening a teacher meet link to the student meet screen', () => {
    expect(ownDashboardPathFor('student', '/dashboard/teacher/meet/abcd-efgh', '?meetingId=abcd-efgh')).toBe(
      '/dashboard/student/meet/abcd-efgh?meetingId=abcd-efgh',
    );
  });

  it('keeps an empty query empty', () => {
    expect(ownDashboardPathFor('teacher', '/dashboard/student/meet/abc123', '')).toBe('/dashboard/teacher/meet/abc123');
  });

  it('takes the room-ID entry screen likewise', () => {
    expect(ownDashboardPathFor('teacher', '/dashboard/student/emeet', '?meetingId=abc123')).toBe(
      '/dashboard/teacher/emeet?meetingId=abc123',
    );
    expect(ownDashboardPathFor('student', '/dashboard/teacher/emeet', '')).toBe('/dashboard/student/emeet');
  });

  it('takes any other address to the role’s dashboard, dropping the query', () => {
    const others = [
      '/dashboard/student',
      '/dashboard/student/',
      '/dashboard/student/resources',
      '/dashboard/student/meet',
      '/dashboard/student/meet/',
      '/dashboard/student/meet/abc123/extra',
      '/dashboard/student/emeet/',
      '/dashboard/student/emeetx',
      '/dashboard/admin/meet/abc123',
      '/dashboard/teacherX/meet/abc123',
      '/other/dashboard/student/meet/abc123',
      '/',
      '',
    ];
    for (const pathname of others) {
      expect(ownDashboardPathFor('teacher', pathname, search), pathname).toBe('/dashboard/teacher');
      expect(ownDashboardPathFor('student', pathname, search), pathname).toBe('/dashboard/student');
    }
  });
});

describe('readReturnTo', () => {
  it('accepts one of the role’s dashboard screens', () => {
    expect(readReturnTo({ returnTo: '/dashboard/teacher/meet/abc123?meetingId=abc123' }, 'teacher')).toBe(
      '/dashboard/teacher/meet/abc123?meetingId=abc123',
    );
    expect(readReturnTo({ returnTo: '/dashboard/student/emeet' }, 'student')).toBe('/dashboard/student/emeet');
    expect(readReturnTo({ returnTo: '/dashboard/student/', other: 1 }, 'student')).toBe('/dashboard/student/');
  });

  it('refuses another role’s screens', () => {
    expect(readReturnTo({ returnTo: '/dashboard/student/meet/abc123' }, 'teacher')).toBeUndefined();
    expect(readReturnTo({ returnTo: '/dashboard/teacher/emeet' }, 'student')).toBeUndefined();
  });

  it('refuses other sites and look-alike paths', () => {
    for (const returnTo of [
      '//evil.example',
      '//evil.example/dashboard/teacher/',
      'https://evil.example/dashboard/teacher/meet/abc123',
      'http://localhost/dashboard/teacher/emeet',
      '/dashboard/teacherX/meet/abc123',
      '/dashboard/teachers/',
      '/dashboard/teacher',
      'dashboard/teacher/emeet',
      ' /dashboard/teacher/emeet',
      '/auth/teacher/login',
      '',
    ]) {
      expect(readReturnTo({ returnTo }, 'teacher'), returnTo).toBeUndefined();
    }
  });

  it('refuses a state that is not an object with a returnTo string', () => {
    expect(readReturnTo(undefined, 'teacher')).toBeUndefined();
    expect(readReturnTo(null, 'teacher')).toBeUndefined();
    expect(readReturnTo('/dashboard/teacher/emeet', 'teacher')).toBeUndefined();
    expect(readReturnTo(42, 'teacher')).toBeUndefined();
    expect(readReturnTo({}, 'teacher')).toBeUndefined();
    expect(readReturnTo([], 'teacher')).toBeUndefined();
    expect(readReturnTo({ from: '/dashboard/teacher/emeet' }, 'teacher')).toBeUndefined();
    expect(readReturnTo({ returnTo: 42 }, 'teacher')).toBeUndefined();
    expect(readReturnTo({ returnTo: null }, 'teacher')).toBeUndefined();
    expect(readReturnTo({ returnTo: ['/dashboard/teacher/emeet'] }, 'teacher')).toBeUndefined();
    expect(readReturnTo({ returnTo: new String('/dashboard/teacher/emeet') }, 'teacher')).toBeUndefined();
  });
});
