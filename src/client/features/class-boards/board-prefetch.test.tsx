import { afterEach, describe, expect, it } from 'vitest';
import { decodeBoardDownload } from '#shared/board-download';
import { getClassBoardDocument } from '#shared/contract/class-boards';
import { urlOf } from '../../lib/api.ts';
import { clearSession, saveSession } from '../../lib/session.ts';
import { classCodeOf, signUpTeacher, teacherClasses, teacherProfile } from '../../testing/server-actors.ts';
import { downloadBoard, dropStartedDownload, noteBoardCopy } from './board-download-client.ts';
import { boardDocumentUrl, followNavigations, prefetchBoard, started } from './board-prefetch.ts';

/**
 * A class board opened by its address starts its download with the page's first code (decision
 * 069's addendum), against the component tests' real server: only for a board's page, signed in,
 * with no copy of that board in this browser; taken once; stopped when a copy turns up.
 */

afterEach(() => {
  dropStartedDownload(started.classId ?? '');
  clearSession();
  localStorage.clear();
});

async function aTeachersClass() {
  const signedUp = await signUpTeacher();
  const profile = await teacherProfile(signedUp);
  const className = `P${Math.random().toString(36).slice(2, 9)}`;
  await classCodeOf(className, { token: signedUp.token });
  const classId = (await teacherClasses({ token: signedUp.token })).find((taught) => taught.name === className)!._id;
  saveSession({ token: signedUp.token, userType: 'teacher' });
  return { classId, userId: profile._id };
}

const keep = () => new AbortController().signal;

/** The download started with the page for `classId`, taken (as the board's session takes it), or undefined. */
function takeStarted(classId: string) {
  if (started.classId !== classId) return undefined;
  return downloadBoard(classId, keep());
}

describe('the board’s download started with the page', () => {
  it('asks the contract’s address', () => {
    const classId = '5c025607-e0df-4d86-8398-fa54308adaa5';
    expect(boardDocumentUrl(classId)).toBe(urlOf(getClassBoardDocument, { params: { classId } }));
  });

  it('starts on a board’s page when signed in, and is taken once', async () => {
    const { classId } = await aTeachersClass();
    prefetchBoard(`/dashboard/teacher/classes/${classId}/board`);
    expect(takeStarted('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    const body = takeStarted(classId);
    expect(body).toBeDefined();
    // A board nobody drew on: no updates, framed.
    expect(decodeBoardDownload(await body!)).toEqual([]);
    expect(takeStarted(classId)).toBeUndefined();
  });

  it('does not start elsewhere, signed out, or when this browser has a copy of the board', async () => {
    const { classId } = await aTeachersClass();
    prefetchBoard(`/dashboard/teacher/classes/${classId}`);
    expect(takeStarted(classId)).toBeUndefined();

    noteBoardCopy(classId);
    prefetchBoard(`/dashboard/student/classes/${classId}/board`);
    expect(takeStarted(classId)).toBeUndefined();

    localStorage.clear();
    clearSession();
    prefetchBoard(`/dashboard/teacher/classes/${classId}/board`);
    expect(takeStarted(classId)).toBeUndefined();
  });

  it('stops when a copy turns up, or when its taker gives up', async () => {
    const { classId } = await aTeachersClass();
    prefetchBoard(`/dashboard/teacher/classes/${classId}/board`);
    dropStartedDownload(classId);
    expect(takeStarted(classId)).toBeUndefined();

    prefetchBoard(`/dashboard/teacher/classes/${classId}/board`);
    expect(started.classId).toBe(classId);
    const giveUp = new AbortController();
    const body = downloadBoard(classId, giveUp.signal);
    expect(started.classId).toBeUndefined();
    giveUp.abort();
    await expect(body).rejects.toThrow();
  });

  it('starts as a navigation to a board starts, and stops when the navigation ends elsewhere', async () => {
    const { classId } = await aTeachersClass();
    type State = Parameters<Parameters<Parameters<typeof followNavigations>[0]['subscribe']>[0]>[0];
    let listener: (state: State) => void = () => undefined;
    followNavigations({ subscribe: (next) => (listener = next) });
    const classPage = { pathname: `/dashboard/teacher/classes/${classId}` };
    const boardPage = { pathname: `/dashboard/teacher/classes/${classId}/board` };

    listener({ location: classPage, navigation: { location: boardPage } });
    const first = started.controller;
    expect(started.classId).toBe(classId);
    // The same board again (the router's next state of one navigation): the same download.
    listener({ location: classPage, navigation: { location: boardPage } });
    expect(started.controller).toBe(first);
    // The navigation landed on the board: kept for its screen to take.
    listener({ location: boardPage, navigation: {} });
    expect(started.controller).toBe(first);
    expect(first!.signal.aborted).toBe(false);

    // Another navigation to the board, then back to the class page before the board took it.
    dropStartedDownload(classId);
    listener({ location: classPage, navigation: { location: boardPage } });
    const second = started.controller!;
    listener({ location: classPage, navigation: {} });
    expect(second.signal.aborted).toBe(true);
    expect(started.classId).toBeUndefined();

    // On to another board before the first was taken: the first stops, the other starts.
    const otherBoard = { pathname: '/dashboard/teacher/classes/00000000-0000-4000-8000-000000000000/board' };
    listener({ location: classPage, navigation: { location: boardPage } });
    const third = started.controller!;
    listener({ location: classPage, navigation: { location: otherBoard } });
    expect(third.signal.aborted).toBe(true);
    expect(started.classId).toBe('00000000-0000-4000-8000-000000000000');
  });
});
