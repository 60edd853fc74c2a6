import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openApp } from '../../testing/open-app.tsx';
import { addQuiz, openLiveGame, signInAs, signUpTeacher, teacherClasses } from '../../testing/server-actors.ts';

/** Review of issue 34: the teacher's dashboard leads back to the projector of each game still running. */

/** A class name of this test's own: class names are unique in the school. */
const newClassName = () => `Live ${Math.random().toString(36).slice(2, 8)}`;

describe("the teacher's running live games", () => {
  it('shows a banner per game not over of their classes, whose Open is the host page', async () => {
    const teacher = await signUpTeacher();
    const className = newClassName();
    const quiz = await addQuiz(teacher, { class: className, title: 'Fractions live' });
    const classId = (await teacherClasses(teacher)).find((taught) => taught.name === className)!._id;
    const game = await openLiveGame(teacher, quiz._id, classId);
    signInAs(teacher, 'teacher');
    await openApp('/dashboard/teacher');
    const banner = await screen.findByRole('link', {
      name: `Live game running: Fractions live in ${className} Open`,
    });
    expect(banner).toHaveAttribute('href', `/dashboard/teacher/live/${game._id}`);
    expect(screen.getByRole('region', { name: 'Live games' })).toContainElement(banner);
  });

  it('shows none to a teacher with no game running', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    await openApp('/dashboard/teacher');
    expect(await screen.findByRole('heading', { name: /^Welcome,/ })).toBeVisible();
    // The list has been asked for and answered empty: still no banner.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(screen.queryByRole('region', { name: 'Live games' })).toBeNull();
  });
});
