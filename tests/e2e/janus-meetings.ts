import { TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from '../chromium-args.ts';
import { writeFakeCamera, type FakeCameraSettings } from '../fake-camera.ts';
import { readRtpStreams, recordPeerConnections } from '../meeting-stats.ts';
import { startJanus, type JanusProcess } from '../../scripts/janus.ts';
import { freePort } from '../../src/server/testing/server-process.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { enterStudyMode, signInByToken } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { AppInstance } from './app-instances.ts';
import { expect, test } from './fixtures.ts';

/**
 * Meetings through Janus in real browsers (decision 037), shared by the Janus scenarios: a
 * browser with a small fake camera, an app instance with Janus servers of its own (started here,
 * whatever E2E_BASE_URL says: the SFU is the subject, and a scenario may kill one), the class's
 * people signed in, their meeting pages, and what those pages send and receive.
 */

/**
 * A camera small enough for several pages on two cores (decision 047): 480×270 at 10 frames a
 * second, which Chromium still sends in two simulcast layers (full and half width).
 */
export const SMALL_CAMERA: FakeCameraSettings = { width: 480, height: 270, framesPerSecond: 10, seconds: 4 };

type Cleanup = () => Promise<void> | void;

/**
 * What a test starts, stopped after it even when it timed out (a timed-out test's own `finally`
 * does not run: its Janus and app instance were left running). Call at a spec's top level; push
 * each stop as its thing starts; they run last first.
 */
export function cleanupsAfterEach(): Cleanup[] {
  const cleanups: Cleanup[] = [];
  test.afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
  });
  return cleanups;
}

/** A folder for the test's files (the camera, the instance's data), removed after it. */
export function testFolder(cleanups: Cleanup[]): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-e2e-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Debian's Chromium whose fake camera plays a generated picture of `camera`'s size (written into `folder`). */
export async function launchWithCamera(folder: string, camera: FakeCameraSettings, cleanups: Cleanup[]) {
  const file = path.join(folder, 'camera.y4m');
  writeFakeCamera(file, camera);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS, `--use-file-for-fake-video-capture=${file}`],
  });
  cleanups.push(() => browser.close());
  return browser;
}

/**
 * Starts one Janus (Debian's, with deploy/janus's config) per RTP port range, on free ports with
 * one secret, then an app instance (embedded database in `folder`) whose JANUS_URL lists them in
 * that order. The instance's log goes into the run's output with `[app]` before it: the why of a
 * closed socket or a moved room.
 */
export async function startAppWithJanus(folder: string, rtpPortRanges: string[], cleanups: Cleanup[]) {
  const apiSecret = randomBytes(18).toString('hex');
  const janus: JanusProcess[] = [];
  for (const rtpPortRange of rtpPortRanges) {
    const server = await startJanus({ port: await freePort(), host: '127.0.0.1', apiSecret, rtpPortRange });
    cleanups.push(() => server.stop());
    janus.push(server);
  }
  const instance = new AppInstance(
    await freePort(),
    {
      DATA_DIR: path.join(folder, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      JANUS_URL: janus.map((server) => server.url).join(','),
      JANUS_API_SECRET: apiSecret,
      MEETING_ROOM_SIZE: '30',
      LOG_LEVEL: 'warn',
      REGISTRATION_LIMIT_PER_IP: '1000',
      SIGN_IN_LIMIT_PER_IP: '1000',
      QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
      SETUP_CODE: TEST_SETUP_CODE,
    },
    { onOutput: (text) => console.log(`[app] ${text.trimEnd()}`) },
  );
  cleanups.push(() => instance.stop());
  await instance.start();
  return { janus, instance };
}

/** Someone signed in (their token, as the login page stores it) who opens the meeting. */
export type SignedInPerson = { token: string; role: 'teacher' | 'student'; name: string; ignoresModeration: boolean };

/** A student of the class (registered with its join code) signed in. */
async function signedInStudent(
  request: APIRequestContext,
  classCode: string,
  { ignoresModeration = false } = {},
): Promise<SignedInPerson> {
  const student = await registeredStudent(request, { classCode });
  const login = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  return { token: (await login.json()).data as string, role: 'student', name: student.name, ignoresModeration };
}

/**
 * A teacher with a class and its meeting room, and `students` students of the class, signed in
 * on `baseUrl`: the teacher's session first. `ignoresModeration(index)` says which students
 * (numbered from 1, after the teacher) play a page that ignores the teacher's mute.
 */
export async function classSessions(
  browser: Browser,
  baseUrl: string,
  students: number,
  ignoresModeration: (index: number) => boolean = () => false,
) {
  const setup = await browser.newContext({ baseURL: baseUrl });
  try {
    const { teacher, token, klass, roomId } = await teacherWithMeetingRoom(setup.request);
    const sessions: SignedInPerson[] = [{ token, role: 'teacher', name: teacher.name, ignoresModeration: false }];
    for (let index = 1; index <= students; index += 1) {
      sessions.push(
        await signedInStudent(setup.request, klass.joinCode, { ignoresModeration: ignoresModeration(index) }),
      );
    }
    return { sessions, klass, roomId };
  } finally {
    await setup.close();
  }
}

export type SocketWindow = Window & {
  __meetingSocketCloses?: number[];
  /** While set, the page sends its answers to subscription offers this much later. */
  __answerDelayMs?: number;
  /** Answers held back so far. */
  __answersDelayed?: number;
  /** Held answers sent since. */
  __delayedAnswersSent?: number;
};

/**
 * For `context.addInitScript`: records the close code of every meeting socket the page opens (a
 * slow page knocked out of the room shows here), and, for a page playing a modified client,
 * drops the teacher's `moderated` messages so it keeps its microphone on whatever it is told.
 * A page with `__answerDelayMs` set holds its answers to subscription offers that long, as a
 * laptop too slow to apply an update in time.
 */
function watchSockets({ ignoresModeration }: { ignoresModeration: boolean }) {
  const closes: number[] = [];
  const own = window as SocketWindow;
  own.__meetingSocketCloses = closes;
  own.__answersDelayed = 0;
  own.__delayedAnswersSent = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('close', (event) => closes.push(event.code));
    }
    override send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      const delayMs = own.__answerDelayMs ?? 0;
      if (delayMs > 0 && typeof data === 'string' && data.includes('"type":"sfu-answer"')) {
        own.__answersDelayed = (own.__answersDelayed ?? 0) + 1;
        setTimeout(() => {
          own.__delayedAnswersSent = (own.__delayedAnswersSent ?? 0) + 1;
          super.send(data);
        }, delayMs);
        return;
      }
      super.send(data);
    }
    override get onmessage() {
      return super.onmessage;
    }
    override set onmessage(handler: ((event: MessageEvent) => void) | null) {
      super.onmessage = (event: MessageEvent) => {
        if (ignoresModeration && typeof event.data === 'string' && event.data.includes('"type":"moderated"')) return;
        handler?.call(this, event);
      };
    }
  };
}

/**
 * Signs a person in by their token (as the login page would store it) and opens the meeting's
 * page, up to its "Join meeting" button. The page records its connections (for getStats()) and
 * its meeting sockets' closes (watchSockets).
 */
export async function openPreJoin(browser: Browser, baseURL: string, roomId: string, session: SignedInPerson) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  await signInByToken(context, baseURL, session);
  // Every connection the page makes, for getStats() below (the app keeps them private).
  await context.addInitScript(recordPeerConnections);
  await context.addInitScript(watchSockets, { ignoresModeration: session.ignoresModeration });
  const page = await context.newPage();
  await page.goto(`/dashboard/${session.role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`);
  // The others' meetings keep both cores busy: the page may take a while to load.
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: patience(60_000) });
  if (session.role === 'student') await enterStudyMode(page);
  return { context, page };
}

/**
 * openPreJoin, then Join: the person is in. With `cpuSlowdown`, the page's main thread runs
 * that many times slower from then on (a slow school laptop; loading the app is not the subject).
 */
export async function openMeeting(
  browser: Browser,
  baseURL: string,
  roomId: string,
  session: SignedInPerson,
  { cpuSlowdown, onLoaded }: { cpuSlowdown?: number; onLoaded?: () => void } = {},
) {
  const { context, page } = await openPreJoin(browser, baseURL, roomId, session);
  onLoaded?.();
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  if (cpuSlowdown) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  }
  return { context, page };
}

/** The close codes of the meeting sockets the page opened: none, for a page that stayed in. */
export const socketCloses = (page: Page) => page.evaluate(() => (window as SocketWindow).__meetingSocketCloses ?? []);

/** Each named video shows frames from the other browser: a size, then its time moving on. */
export async function expectVideosPlaying(page: Page, labels: string[]) {
  const playing = (minimumTimes: number[] | null) =>
    page.evaluate(
      ({ labels, minimumTimes }) =>
        labels.map((label, index) => {
          const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${CSS.escape(label)}"]`);
          if (!video || video.videoWidth === 0) return -1;
          return minimumTimes && video.currentTime <= minimumTimes[index]! ? -1 : video.currentTime;
        }),
      { labels, minimumTimes },
    );
  let first: number[] = [];
  await expect
    .poll(async () => (first = await playing(null)).filter((time) => time < 0).length, { timeout: patience(60_000) })
    .toBe(0);
  await expect
    .poll(async () => (await playing(first)).filter((time) => time < 0).length, { timeout: patience(30_000) })
    .toBe(0);
}

/**
 * How much sound energy the page received over one second, from everyone (inbound audio's
 * totalAudioEnergy): above 0 while someone's microphone is on, 0 once all are muted.
 */
export async function audioEnergyGrowth(page: Page): Promise<number> {
  const energy = async () =>
    (await readRtpStreams(page)).streams.reduce((total, stream) => total + (stream.audioEnergy ?? 0), 0);
  const before = await energy();
  await page.waitForTimeout(1000);
  return (await energy()) - before;
}
