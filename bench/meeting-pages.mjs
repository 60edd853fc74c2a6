// The meeting benches' people: a browser context signed in by its token, the meet route, the
// pre-join screen and the student's study mode, as a person would go through them.
import { recordPeerConnections } from '../tests/meeting-stats.ts';

export const VIEWPORT = { width: 1280, height: 800 };

export const meetPath = (role, roomId) =>
  `/dashboard/${role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`;

/**
 * A browser context already logged in: the session lives in localStorage (`token`, `userType`).
 * `isRecordingConnections`: the page's RTCPeerConnections are kept for getStats()
 * (tests/meeting-stats.ts).
 */
export async function newMeetingContext(browser, baseUrl, { role, token }, { isRecordingConnections = false } = {}) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    storageState: {
      cookies: [],
      origins: [
        {
          origin: baseUrl,
          localStorage: [
            { name: 'token', value: token },
            { name: 'userType', value: role },
          ],
        },
      ],
    },
  });
  if (isRecordingConnections) await context.addInitScript(recordPeerConnections);
  return context;
}

/** The pre-join screen with the camera preview playing (the camera is open before the click). */
export async function waitForPreJoin(page, { timeout } = {}) {
  await page.getByRole('heading', { name: 'Ready to join?' }).waitFor({ timeout });
  await page.waitForFunction(
    () => {
      const preview = document.querySelector('video[aria-label="Your camera preview"]');
      return preview !== null && preview.videoWidth > 0;
    },
    undefined,
    { timeout },
  );
}

/** The student dashboard is blocked until full screen (study mode): press f, as a student would. */
export async function enterStudyMode(page, { timeout } = {}) {
  const overlay = page.getByTestId('study-mode-overlay');
  await overlay.waitFor({ state: 'visible', timeout });
  await page.keyboard.press('f');
  await overlay.waitFor({ state: 'hidden', timeout });
}
