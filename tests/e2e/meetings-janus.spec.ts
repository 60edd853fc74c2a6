import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../chromium-args.ts';
import { writeFakeCamera } from '../fake-camera.ts';
import { readRtpStreams, recordPeerConnections } from '../meeting-stats.ts';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../scripts/janus.ts';
import { freePort } from '../../src/server/testing/server-process.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { enterStudyMode } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { AppInstance } from './app-instances.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 21: a class meets through the Janus SFU (decision 037). Eight people in one room, in
 * Chromium with fake cameras: everyone sees the seven others' video, and each browser sends its
 * camera once (at most its simulcast layers), where the mesh would send it seven times. The
 * teacher mutes everyone (the sound through Janus stops, even from a page that ignores the mute)
 * and removes someone (who cannot rejoin).
 *
 * Issue 30: school laptops are slow. Every page runs with its CPU throttled 4× (DevTools
 * `Emulation.setCPUThrottlingRate`) through a join, a removal and a lock, and no page's socket
 * closes: a late answer to a subscription update must not knock anyone out of the room. One page
 * holds its answer to the removal's update for 25 s (longer than the 15 s that closed pages
 * before) and keeps decoding every camera meanwhile.
 *
 * Eight cameras encoded and 56 decoded on two cores: each camera is a small generated picture
 * (480×270 at 10 frames a second, which Chromium still sends in two simulcast layers, as a
 * 640×360 camera is sent in production), not Chromium's own 640×480 one.
 *
 * Starts its own Janus (Debian's, with deploy/janus's config) and an app instance with JANUS_URL.
 */
const PEOPLE = 8;
/** A slow school laptop: the page's main thread at a quarter of this machine's speed. */
const CPU_SLOWDOWN = 4;
/** The fake camera, sent in two simulcast layers (full and half width). */
const FAKE_CAMERA = { width: 480, height: 270, framesPerSecond: 10, seconds: 4 };
/** How long one page holds its answer to the removal's update: past the 15 s that closed pages before. */
const ANSWER_DELAY_MS = 25_000;
const installed = isJanusInstalled();
test.skip(!installed && process.env.JANUS_REQUIRED !== '1', 'needs Debian’s janus (apt-get install janus)');

type Person = { context: BrowserContext; page: Page; name: string };
type SocketWindow = Window & {
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

/** Signs a person in by their token (as the login page would store it) and opens the meeting. */
async function openMeeting(
  browser: Browser,
  baseURL: string,
  roomId: string,
  session: { token: string; role: string; ignoresModeration: boolean },
  mark: (step: string) => void,
) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((stored) => {
    localStorage.setItem('token', stored.token);
    localStorage.setItem('userType', stored.role);
  }, session);
  // Every connection the page makes, for getStats() below (the app keeps them private).
  await context.addInitScript(recordPeerConnections);
  await context.addInitScript(watchSockets, { ignoresModeration: session.ignoresModeration });
  const page = await context.newPage();
  await page.goto(`/dashboard/${session.role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`);
  // The others' meetings keep both cores busy: the page may take a while to load.
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: patience(60_000) });
  mark('  page loaded');
  if (session.role === 'student') await enterStudyMode(page);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  // Joined at full speed (loading the app is not the subject); from now on, a slow laptop.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return { context, page };
}

/** The close codes of the meeting sockets the page opened: none, for a page that stayed in. */
const socketCloses = (page: Page) => page.evaluate(() => (window as SocketWindow).__meetingSocketCloses ?? []);

/** Each named video shows frames from the other browser: a size, then its time moving on. */
async function expectVideosPlaying(page: Page, labels: string[]) {
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

/** The outbound video streams of the page's connections that carry bytes: what this browser uploads. */
async function sentVideoStreams(page: Page): Promise<number> {
  const { streams } = await readRtpStreams(page);
  return streams.filter((stream) => stream.direction === 'outbound' && stream.kind === 'video' && stream.bytes > 0)
    .length;
}

/** The frame widths of the video the page receives now, one per incoming camera with frames. */
async function receivedVideoWidths(page: Page): Promise<number[]> {
  const { streams } = await readRtpStreams(page);
  return streams.flatMap((stream) =>
    stream.direction === 'inbound' && stream.kind === 'video' && stream.frameWidth ? [stream.frameWidth] : [],
  );
}

/**
 * How much sound energy the page received over one second, from everyone (inbound audio's
 * totalAudioEnergy): above 0 while someone's microphone is on, 0 once all are muted.
 */
async function audioEnergyGrowth(page: Page): Promise<number> {
  const energy = async () =>
    (await readRtpStreams(page)).streams.reduce((total, stream) => total + (stream.audioEnergy ?? 0), 0);
  const before = await energy();
  await page.waitForTimeout(1000);
  return (await energy()) - before;
}

/**
 * What the test started, stopped after it even when it timed out (a timed-out test's own
 * `finally` does not run: its Janus and app instance were left running).
 */
const cleanups: (() => Promise<void> | void)[] = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

test('eight slow laptops meet through Janus: all see all, one camera stream each, mute-all, remove, lock', async ({
  baseURL: _unused,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: the SFU is the subject, not the screen size');
  // Not in .ci/run yet: eight throttled pages need more than two cores (decision 047's figures);
  // `E2E_CLASS_MEETING=1` runs it.
  test.skip(process.env.E2E_CLASS_MEETING !== '1', 'the eight-laptop class runs with E2E_CLASS_MEETING=1');
  // About 3 minutes on a quiet two-core machine (decision 047); more under load.
  test.setTimeout(patience(240_000));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-e2e-'));
  const camera = path.join(dataDir, 'camera.y4m');
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFakeCamera(camera, FAKE_CAMERA);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
    ],
  });
  cleanups.push(() => browser.close());
  const apiSecret = randomBytes(18).toString('hex');
  const janus: JanusProcess = await startJanus({
    port: await freePort(),
    host: '127.0.0.1',
    apiSecret,
    rtpPortRange: '40000-40999',
  });
  cleanups.push(() => janus.stop());
  const instance = new AppInstance(
    await freePort(),
    {
      DATA_DIR: path.join(dataDir, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      JANUS_URL: janus.url,
      JANUS_API_SECRET: apiSecret,
      MEETING_ROOM_SIZE: '30',
      LOG_LEVEL: 'warn',
      REGISTRATION_LIMIT_PER_IP: '1000',
      SIGN_IN_LIMIT_PER_IP: '1000',
      QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
    },
    // Its warnings (a participant the SFU gave up on) go into the run's log: the why of a closed socket.
    { onOutput: (text) => console.log(`[app] ${text.trimEnd()}`) },
  );
  const people: Person[] = [];
  // Where the time goes, in the run's log: each step's end, with the machine's load then.
  const startedAt = Date.now();
  const mark = (step: string) =>
    console.log(
      `[class meeting] ${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${step} (load ${loadavg()[0]!.toFixed(1)})`,
    );
  cleanups.push(() => instance.stop());
  await instance.start();
  const setup = await browser.newContext({ baseURL: instance.baseUrl });
  const { teacher, token, klass, roomId } = await teacherWithMeetingRoom(setup.request);
  const sessions = [{ token, role: 'teacher', name: teacher.name, ignoresModeration: false }];
  for (let index = 1; index < PEOPLE; index += 1) {
    const student = await registeredStudent(setup.request, { classCode: klass.joinCode });
    const login = await setup.request.post('/api/student/login', {
      data: { rollNumber: student.rollNumber, password: student.password },
    });
    expect(login.ok(), await login.text()).toBe(true);
    // The third person plays a modified page that ignores the teacher's mute.
    const ignoresModeration = index === 2;
    sessions.push({
      token: (await login.json()).data as string,
      role: 'student',
      name: student.name,
      ignoresModeration,
    });
  }
  await setup.close();
  mark('accounts ready');

  // Seven are in (each page slowed once joined); the eighth joins a room of slow laptops.
  for (const session of sessions) {
    const { context, page } = await openMeeting(browser, instance.baseUrl, roomId, session, mark);
    people.push({ context, page, name: session.name });
    cleanups.push(() => context.close());
    mark(`${people.length} joined`);
  }

  // Everyone sees the seven others' video frames (each page checked in one go: 56 videos).
  for (const person of people) {
    await expect(person.page.getByRole('group')).toHaveCount(PEOPLE, { timeout: patience(30_000) });
    const others = people.filter((other) => other !== person).map((other) => `${other.name}'s camera`);
    await expectVideosPlaying(person.page, others);
  }

  mark('all see all');

  // Each browser sends its camera as one published stream: its two simulcast layers, never one
  // per viewer as in the mesh (7 here).
  for (const person of people) {
    expect(await sentVideoStreams(person.page), `${person.name} sends its two layers`).toBe(2);
  }

  // The teacher's gallery of seven small tiles receives each camera's lowest simulcast layer;
  // the speaker view's one large tile its highest (Janus switches on our server's word).
  const [teacherPage, speakers] = [people[0]!.page, [people[1]!, people[2]!]];
  const widestReceived = async () => Math.max(0, ...(await receivedVideoWidths(teacherPage)));
  await expect.poll(widestReceived, { timeout: patience(20_000) }).toBeLessThan(FAKE_CAMERA.width);
  await teacherPage.getByRole('button', { name: 'Speaker view' }).click();
  await expect.poll(widestReceived, { timeout: patience(20_000) }).toBe(FAKE_CAMERA.width);
  await teacherPage.getByRole('button', { name: 'Speaker view' }).click();

  // Two students speak up; the teacher mutes everyone: their microphones go off, and the
  // audio reaching the teacher through Janus goes silent, the modified page's too (Janus holds
  // its sound back: VideoRoom `moderate`), though that page still has its microphone on.
  for (const speaker of speakers) {
    const microphone = speaker.page.getByRole('button', { name: 'Microphone', exact: true });
    await microphone.click();
    await expect(microphone).toHaveAttribute('aria-pressed', 'true');
    await expect(
      teacherPage.getByRole('group', { name: speaker.name, exact: true }).getByText('Microphone off'),
    ).toHaveCount(0);
  }
  await expect.poll(() => audioEnergyGrowth(teacherPage), { timeout: patience(30_000) }).toBeGreaterThan(0);
  mark('layers checked, two speak');
  await teacherPage.getByRole('button', { name: 'Participants' }).click();
  const panel = teacherPage.getByRole('complementary');
  await panel.getByRole('button', { name: 'Mute everyone' }).click();
  for (const [index, speaker] of speakers.entries()) {
    await expect(speaker.page.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute(
      'aria-pressed',
      sessions[index + 1]!.ignoresModeration ? 'true' : 'false',
    );
    await expect(
      teacherPage.getByRole('group', { name: speaker.name, exact: true }).getByText('Microphone off'),
    ).toBeAttached();
  }
  await expect.poll(() => audioEnergyGrowth(teacherPage), { timeout: patience(30_000) }).toBe(0);

  mark('muted everyone');

  // The teacher removes one student: their page says so, everyone else's tile goes, and the
  // same link does not let them back. Every slow page gets a new subscription offer at once;
  // one of them holds its answer for 25 s, and still decodes every camera meanwhile.
  const removed = people[PEOPLE - 1]!;
  const remaining = people.slice(0, PEOPLE - 1);
  const late = remaining[3]!;
  await late.page.evaluate((delayMs) => ((window as SocketWindow).__answerDelayMs = delayMs), ANSWER_DELAY_MS);
  await panel.getByRole('button', { name: `Remove ${removed.name}` }).click();
  await teacherPage
    .getByRole('alertdialog', { name: `Remove ${removed.name}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(removed.page.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();
  const lateAnswers = () =>
    late.page.evaluate(() => {
      const own = window as SocketWindow;
      return { held: own.__answersDelayed ?? 0, sent: own.__delayedAnswersSent ?? 0 };
    });
  await expect.poll(async () => (await lateAnswers()).held).toBeGreaterThan(0);
  const lateOthers = remaining.filter((other) => other !== late).map((other) => `${other.name}'s camera`);
  await expectVideosPlaying(late.page, lateOthers);
  expect((await lateAnswers()).sent, 'its videos played while its answer was still held').toBe(0);
  await late.page.evaluate(() => ((window as SocketWindow).__answerDelayMs = 0));
  mark('removed one; the late page kept decoding');

  // The teacher locks the room: every page says so.
  await panel.getByRole('button', { name: 'Lock room' }).click();
  await expect(panel.getByRole('button', { name: 'Lock room' })).toHaveAttribute('aria-pressed', 'true');
  await teacherPage.getByRole('button', { name: 'Close participants' }).click(); // its rows are groups too
  for (const person of remaining) {
    await expect(person.page.getByRole('group')).toHaveCount(PEOPLE - 1, { timeout: patience(30_000) });
    await expect(person.page.getByText('Room locked').first()).toBeVisible();
  }
  mark('locked, seen by all');
  await removed.page.reload();
  await enterStudyMode(removed.page);
  await removed.page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(removed.page.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();

  mark('the removed one is refused');
  // Nobody was knocked out on the way (no socket closed), and every page still decodes every
  // remaining camera.
  for (const person of remaining) {
    expect(await socketCloses(person.page), `${person.name}'s meeting sockets closed`).toEqual([]);
    const others = remaining.filter((other) => other !== person).map((other) => `${other.name}'s camera`);
    await expectVideosPlaying(person.page, others);
  }
  mark('all still decode every camera, no socket closed');
});
