import { describe, expect, it } from 'vitest';
import { DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL, demoRollNumber, isSharedDemoAccount } from './demo.ts';

describe('isSharedDemoAccount', () => {
  it("knows the demo's students by their usernames' form, and only theirs", () => {
    expect(demoRollNumber('10A', 0)).toBe('demo-10a-01');
    expect(DEMO_STUDENT_ROLL_NUMBER).toBe('demo-10a-01');
    expect(isSharedDemoAccount({ rollNumber: 'demo-10a-01' })).toBe(true);
    expect(isSharedDemoAccount({ rollNumber: 'demo-10b-12' })).toBe(true);
    expect(isSharedDemoAccount({ rollNumber: 'demo-10c-01' })).toBe(false);
    expect(isSharedDemoAccount({ rollNumber: 'x-demo-10a-01' })).toBe(false);
    expect(isSharedDemoAccount({ rollNumber: 'demo-10a-01x' })).toBe(false);
  });

  it("knows the demo's teachers by their emails, in any case", () => {
    expect(isSharedDemoAccount({ email: DEMO_TEACHER_EMAIL.toUpperCase() })).toBe(true);
    expect(isSharedDemoAccount({ email: 'teacher@school.example' })).toBe(false);
    expect(isSharedDemoAccount({})).toBe(false);
  });
});
