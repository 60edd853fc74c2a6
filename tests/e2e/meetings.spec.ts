import type { Browser, Page } from '@playwright/test';
import { CLOSE_MESSAGES } from '../../src/shared/meetings.ts';
import { enterStudyMode, logInStudentThroughUi, logInTeacherThroughUi, registerStudentThroughUi } from './actors.ts';
import { registeredStudent, registeredTeacher, teacherWithClass, teacherWithMeetingRoom } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectVideoFlowing } from './meeting-actors.ts';

/**
 * Issue 7: meetings of our own, browser to browser, in Chromium with fake
 * cameras and microphones (a moving test pattern and a beep).
 */

/** A second person in their own browser context, the size of this project's screen. */
async function newPerson(browser: Browser, page: Page, baseURL: string | undefined) {
  const context = await browser.newContext({ viewport: page.viewportSize(), baseURL });
  return context.newPage();
}

test('a teacher and a student meet: video both ways, camera off, chat, leave', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const { teacher, klass } = await teacherWithClass(request);
  const student = await registeredStudent(request, { classCode: klass.joinCode });

  // The teacher opens a new room for their class from EMeet (decision 035) and joins it.
  await logInTeacherThroughUi(page, teacher);
  await page.getByRole('navigation').getByRole('link', { name: 'EMeet' }).click();
  await expect(page.getByRole('heading', { name: 'EMeet', level: 1 })).toBeVisible();
  await expectAccessible(page, 'teacher emeet');
  await page.getByRole('button', { name: 'Create a room' }).click();
  await expect(page.getByText('Choose one of your classes')).toBeVisible();
  await page.getByRole('combobox', { name: /Class/ }).selectOption({ label: klass.name });
  await page.getByRole('button', { name: 'Create a room' }).click();
  const roomId = (await page.getByTestId('new-room-id').textContent())!;
  expect(roomId).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){4}$/);
  await expect(page.getByLabel('Invite link')).toHaveValue(
    `${baseURL}/dashboard/student/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`,
  );
  await page.getByRole('button', { name: 'Join this room' }).click();
  await expect(page).toHaveURL(
    new RegExp(
      `/dashboard/teacher/meet/${roomId}\\?token=[\\w.-]+&meetingId=${roomId}&webcamEnabled=true&micEnabled=true$`,
    ),
  );
  // The pre-join preview shows the camera before anyone else sees it.
  await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  await expect
    .poll(() => page.getByLabel('Your camera preview').evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0);
  await expectAccessible(page, 'pre-join');
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();

  // The student sees the room under their class on their own EMeet screen, in another browser,
  // and types its ID (a click on the room's Join does the same).
  const studentPage = await newPerson(browser, page, baseURL);
  await logInStudentThroughUi(studentPage, student);
  await studentPage.getByRole('navigation').getByRole('link', { name: 'EMeet' }).click();
  const rooms = studentPage.getByRole('list', { name: 'Rooms of your classes' });
  await expect(rooms.getByRole('listitem')).toHaveCount(1);
  await expect(rooms).toContainText(`${klass.name}Opened by ${teacher.name}`);
  await expectAccessible(studentPage, 'student emeet');
  await studentPage.getByLabel('Room ID').fill('no');
  await studentPage.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(studentPage.getByLabel('Room ID')).toHaveAttribute('aria-invalid', 'true');
  await studentPage.getByLabel('Room ID').fill(` ${roomId} `);
  await studentPage.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(studentPage.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  const joinClickedAt = Date.now();
  await studentPage.getByRole('button', { name: 'Join meeting' }).click();

  // Each sees the other's video playing.
  const teacherTileForStudent = studentPage.getByRole('group', { name: teacher.name, exact: true });
  await expectVideoFlowing(teacherTileForStudent);
  const firstFrameMs = Date.now() - joinClickedAt;
  test.info().annotations.push({ type: 'join-to-first-remote-frame', description: `${firstFrameMs} ms` });
  console.log(`join-to-first-remote-frame: ${firstFrameMs} ms (${test.info().project.name})`);
  const studentTile = page.getByRole('group', { name: student.name, exact: true });
  await expectVideoFlowing(studentTile);
  // The fake microphone beeps: the teacher's tile lights up while it sounds (a student joins muted, decision 038).
  await expect(teacherTileForStudent).toHaveAttribute('data-speaking', 'true');
  // The login's toast may still be fading out on the student's page (colours mid-fade are not real ones).
  await expect(studentPage.locator('div[role="status"][aria-live="polite"]')).toHaveCount(0);
  await expectAccessible(page, 'meeting (teacher)');
  await expectAccessible(studentPage, 'meeting (student)');
  if (test.info().project.name === 'desktop') await page.screenshot({ path: 'docs/screenshots/meeting.png' });

  // The teacher shares their screen: the student sees it in a tile of its own, until it stops.
  const shareScreen = page.getByRole('button', { name: 'Share screen' });
  await shareScreen.click();
  await expect(shareScreen).toHaveAttribute('aria-pressed', 'true');
  const sharedScreen = studentPage.getByRole('group', { name: `${teacher.name}'s screen` });
  await expectVideoFlowing(sharedScreen);
  await shareScreen.click();
  await expect(sharedScreen).toHaveCount(0);

  // The student turns the camera off: the teacher's tile for them says so.
  const studentCamera = studentPage.getByRole('button', { name: 'Camera', exact: true });
  await expect(studentCamera).toHaveAttribute('aria-pressed', 'true');
  await studentCamera.click();
  await expect(studentCamera).toHaveAttribute('aria-pressed', 'false');
  await expect(studentTile.getByText('Camera off')).toBeVisible();
  await expect(studentTile.locator('video')).toHaveCount(0);
  // ...and the microphone, which a student's page starts off: on, then off again; the tile marks it.
  const studentMicrophone = studentPage.getByRole('button', { name: 'Microphone', exact: true });
  await expect(studentTile.getByText('Microphone off')).toBeAttached();
  await studentMicrophone.click();
  await expect(studentMicrophone).toHaveAttribute('aria-pressed', 'true');
  await expect(studentTile.getByText('Microphone off')).toHaveCount(0);
  await studentMicrophone.click();
  await expect(studentTile.getByText('Microphone off')).toBeAttached();

  // A chat message arrives, with an unread count until the chat is opened.
  await studentPage.getByRole('button', { name: 'Chat' }).click();
  await studentPage.getByLabel('Message').fill('Hello from the student');
  await studentPage.getByLabel('Message').press('Enter');
  await expect(studentPage.getByRole('log', { name: 'Chat' })).toContainText('Hello from the student');
  await expect(page.getByRole('button', { name: /Chat 1 unread/ })).toBeVisible();
  await page.getByRole('button', { name: /Chat/ }).click();
  await expect(page.getByRole('log', { name: 'Chat' })).toContainText(`${student.name}`);
  await expect(page.getByRole('log', { name: 'Chat' })).toContainText('Hello from the student');
  await expectAccessible(page, 'meeting chat');
  await page.getByRole('button', { name: 'Participants' }).click();
  await expect(page.getByRole('complementary')).toContainText('2 in the room (at most 8)');
  await expectAccessible(page, 'meeting participants');

  // The student leaves: their tile disappears from the teacher's grid.
  await studentPage.getByRole('button', { name: 'Leave' }).click();
  await expect(studentPage.getByRole('heading', { name: 'You left the meeting' })).toBeVisible();
  await expect(studentPage.getByText(CLOSE_MESSAGES.LEFT)).toBeVisible();
  await expect(studentTile).toHaveCount(0);
  await expect(page.getByRole('group', { name: /\(you\)$/ })).toBeVisible();
  await studentPage.context().close();
});

test('an invite link brings a new student through registration and login into the meeting', async ({
  page,
  request,
}) => {
  const { klass, roomId } = await teacherWithMeetingRoom(request);
  const invite = `/dashboard/student/meet/${roomId}?meetingId=${roomId}&webcamEnabled=false&micEnabled=false`;
  await page.goto(invite);
  await expect(page).toHaveURL(/\/auth\/student\/login$/);
  // No account yet: register first; the invite is kept through both forms.
  await page.getByRole('link', { name: 'Register as a student' }).click();
  const student = await registerStudentThroughUi(page, { isOnForm: true, classCode: klass.joinCode });
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(student.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`${invite.replace('?', '\\?')}$`));
  await enterStudyMode(page);
  // The link asked for camera and microphone off: nothing is opened.
  await expect(page.getByText('Your camera is off')).toBeVisible();
  await page.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(page.getByRole('group', { name: `${student.name} (you)` }).getByText('Camera off')).toBeAttached();
  // The page minted its own token and keeps it in the address for a reload.
  await expect(page).toHaveURL(/[?&]token=[\w.-]+/);

  // Keyboard: the chat opens with its input focused; Escape closes it and gives the focus back.
  await page.getByRole('button', { name: 'Chat' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Message')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('log', { name: 'Chat' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Chat' })).toBeFocused();

  // The same student joins from a second tab: this one is told, and can take the meeting back.
  const secondTab = await page.context().newPage();
  await secondTab.goto(page.url());
  await enterStudyMode(secondTab);
  await secondTab.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(secondTab.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You are in this meeting elsewhere' })).toBeFocused();
  await expect(page.getByRole('alert')).toHaveText(CLOSE_MESSAGES.REPLACED);
  await expectAccessible(page, 'meeting ended: replaced');
  await page.getByRole('button', { name: 'Use this tab instead' }).click();
  await page.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  await expect(secondTab.getByRole('heading', { name: 'You are in this meeting elsewhere' })).toBeVisible();
  await secondTab.close();
  await page.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { name: 'You left the meeting' })).toBeFocused();
});

test('a blocked camera and microphone: a clear message, and joining with them off', async ({ page, request }) => {
  const { klass, roomId } = await teacherWithMeetingRoom(request);
  const student = await registeredStudent(request, { classCode: klass.joinCode });
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
  });
  await logInStudentThroughUi(page, student);
  await page.goto(`/dashboard/student/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`);
  await enterStudyMode(page);
  // A student's page asks for the camera only: their microphone starts off (decision 038).
  await expect(page.getByRole('alert')).toContainText('Your browser blocked the camera.');
  await expectAccessible(page, 'pre-join, devices blocked');
  await page.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  // Turning the camera on later asks again, and says why it cannot.
  await page.getByRole('button', { name: 'Camera', exact: true }).click();
  await expect(page.getByText('Your browser blocked the camera.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Camera', exact: true })).toHaveAttribute('aria-pressed', 'false');
});

test('a meeting link with a broken room ID says so', async ({ page, request }) => {
  const teacher = await registeredTeacher(request);
  await logInTeacherThroughUi(page, teacher);
  await page.goto('/dashboard/teacher/meet/x!?meetingId=x');
  await expect(page.getByRole('heading', { name: 'This meeting link is not valid' })).toBeVisible();
  await page.getByRole('link', { name: 'Enter a room ID' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/emeet$/);
});

test('a room of another class is refused with a clear message, on EMeet and by its link', async ({
  page,
  request,
  pageErrors,
}) => {
  // The browser logs the refused token requests: they are this scenario's subject.
  pageErrors.allow(/status of 403 \(Forbidden\)/);
  const { roomId } = await teacherWithMeetingRoom(request);
  const student = await registeredStudent(request); // the homeroom's, not the room's class
  await logInStudentThroughUi(page, student);
  await page.getByRole('navigation').getByRole('link', { name: 'EMeet' }).click();
  await expect(page.getByRole('list', { name: 'Rooms of your classes' }).getByText(roomId)).toHaveCount(0);
  await page.getByLabel('Room ID').fill(roomId);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByText('This room belongs to a class you are not in.')).toBeVisible();
  await page.goto(`/dashboard/student/meet/${roomId}?meetingId=${roomId}&webcamEnabled=false&micEnabled=false`);
  await enterStudyMode(page);
  await page.getByRole('button', { name: 'Join with camera and microphone off' }).click();
  await expect(page.getByText('This room belongs to a class you are not in.')).toBeVisible();
  await expectAccessible(page, 'meeting refused: another class');
});
