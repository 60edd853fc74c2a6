import type { Browser, Page } from '@playwright/test';
import { CLOSE_MESSAGES } from '../../src/shared/meetings.ts';
import { enterStudyMode, logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectToast } from './toasts.ts';

/**
 * Issue 21 point 3 (decision 038): the teacher runs the room. A teacher and two students
 * (cameras off, to spare the machine); a late student finds the room locked.
 */

const linkFor = (role: 'teacher' | 'student', roomId: string) =>
  `/dashboard/${role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=false&micEnabled=true`;

type Student = Awaited<ReturnType<typeof registeredStudent>>;

async function studentJoins(browser: Browser, page: Page, roomId: string, student: Student) {
  const context = await browser.newContext({ viewport: page.viewportSize(), baseURL: test.info().project.use.baseURL });
  const studentPage = await context.newPage();
  await logInStudentThroughUi(studentPage, student);
  await studentPage.goto(linkFor('student', roomId));
  await enterStudyMode(studentPage);
  return studentPage;
}

test('the teacher runs the room: muted students, hands, mute everyone, stop camera, remove, lock', async ({
  page,
  browser,
  request,
}) => {
  test.slow();
  const { teacher, klass, roomId } = await teacherWithMeetingRoom(request);
  const joinCode = { classCode: klass.joinCode };
  const [ada, bob, cy] = await Promise.all([
    registeredStudent(request, joinCode),
    registeredStudent(request, joinCode),
    registeredStudent(request, joinCode),
  ]);

  await logInTeacherThroughUi(page, teacher);
  await page.goto(linkFor('teacher', roomId));
  await expect(page.getByText('You join with your microphone off')).toHaveCount(0);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();

  // A student joins muted, though the link asked for the microphone, and is told so.
  const adaPage = await studentJoins(browser, page, roomId, ada);
  await expect(adaPage.getByText('You join with your microphone off')).toBeVisible();
  await expect(adaPage.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expectAccessible(adaPage, 'pre-join, student muted');
  await adaPage.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  const adaMicrophone = adaPage.getByRole('button', { name: 'Microphone', exact: true });
  await expect(adaMicrophone).toHaveAttribute('aria-pressed', 'false');
  const bobPage = await studentJoins(browser, page, roomId, bob);
  await bobPage.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  const bobMicrophone = bobPage.getByRole('button', { name: 'Microphone', exact: true });
  await expect(bobMicrophone).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('group', { name: bob.name, exact: true }).getByText('Microphone off')).toBeAttached();

  // Ada raises her hand: her tile and the teacher's list show it; the teacher lowers all hands.
  await adaPage.getByRole('button', { name: 'Raise hand' }).click();
  await expect(adaPage.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('group', { name: ada.name, exact: true }).getByText('Hand raised')).toBeVisible();
  await page.getByRole('button', { name: 'Participants' }).click();
  const panel = page.getByRole('complementary');
  await expect(panel.getByRole('region', { name: 'Raised hands' }).getByRole('listitem')).toHaveText([ada.name]);
  await expectAccessible(page, 'meeting, host controls');
  await panel.getByRole('button', { name: 'Lower all hands' }).click();
  await expect(adaPage.getByRole('button', { name: 'Raise hand' })).toHaveAttribute('aria-pressed', 'false');
  await expect(panel.getByRole('region', { name: 'Raised hands' })).toHaveCount(0);

  // Bob speaks up; the teacher mutes everyone: both students' microphones show off, and Bob is told.
  await bobMicrophone.click();
  await expect(bobMicrophone).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('group', { name: bob.name, exact: true }).getByText('Microphone off')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Mute everyone' }).click();
  // A toast of a few seconds: its record, however long the machine took to look.
  await expectToast(bobPage, `${teacher.name} muted you. Unmute when you need to speak.`);
  await expect(bobMicrophone).toHaveAttribute('aria-pressed', 'false');
  await expect(adaMicrophone).toHaveAttribute('aria-pressed', 'false');
  // The teacher's own microphone stays on.
  await expect(page.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute('aria-pressed', 'true');

  // Bob turns his camera on; the teacher stops it: his camera goes off, and he is told.
  const bobCamera = bobPage.getByRole('button', { name: 'Camera', exact: true });
  await bobCamera.click();
  await expect(bobCamera).toHaveAttribute('aria-pressed', 'true');
  const stopBobCamera = panel.getByRole('button', { name: `Stop camera of ${bob.name}` });
  await expect(stopBobCamera).toBeEnabled();
  await stopBobCamera.click();
  await expect(bobCamera).toHaveAttribute('aria-pressed', 'false');
  await expectToast(bobPage, `${teacher.name} turned your camera off.`);
  await expect(stopBobCamera).toBeDisabled();

  // The teacher removes Ada (asked to confirm): her page says so, and the same link does not let her back.
  await panel.getByRole('button', { name: `Remove ${ada.name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Remove ${ada.name}?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(adaPage.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();
  await expect(adaPage.getByRole('alert')).toHaveText(CLOSE_MESSAGES.REMOVED);
  await expect(adaPage.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expectAccessible(adaPage, 'meeting ended: removed');
  await expect(page.getByRole('group', { name: ada.name, exact: true })).toHaveCount(0);
  await adaPage.reload();
  await enterStudyMode(adaPage);
  await adaPage.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(adaPage.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();

  // The teacher locks the room: everyone sees it, and a late student is refused (and may try again later).
  await panel.getByRole('button', { name: 'Lock room' }).click();
  await expect(panel.getByRole('button', { name: 'Lock room' })).toHaveAttribute('aria-pressed', 'true');
  await expect(bobPage.getByText('Room locked')).toBeVisible();
  await expect(page.getByText('Room locked')).toBeVisible();
  const cyPage = await studentJoins(browser, page, roomId, cy);
  await cyPage.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(cyPage.getByRole('heading', { name: 'This room is locked' })).toBeVisible();
  await expect(cyPage.getByRole('alert')).toHaveText(CLOSE_MESSAGES.ROOM_LOCKED);
  await expect(cyPage.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expectAccessible(bobPage, 'meeting, room locked (student)');

  for (const other of [adaPage, bobPage, cyPage]) await other.context().close();
});
