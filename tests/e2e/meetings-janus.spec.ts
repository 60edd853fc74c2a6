import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../chromium-args.ts';
import { readRtpStreams, recordPeerConnections } from '../meeting-stats.ts';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../scripts/janus.ts';
import { freePort } from '../../src/server/testing/server-process.ts';
import { enterStudyMode } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { AppInstance } from './app-instances.ts';
import { expect, test } from './fixtures.ts';

/**
 * Issue 21: a class meets through the Janus SFU (decision 037). Eight people in one room, in
 * Chromium with fake cameras: everyone sees the seven others' video, and each browser sends its
 * camera once (at most its simulcast layers), where the mesh would send it seven times. The
 * teacher mutes everyone (the sound through Janus stops) and removes someone (who cannot rejoin).
 *
 * Starts its own Janus (Debian's, with deploy/janus's config) and an app instance with JANUS_URL.
 */
const PEOPLE = 8;
/** Chromium's fake camera: 640×480, sent in two simulcast layers (full and half width) at that size. */
const FAKE_CAMERA_WIDTH = 640;
const installed = isJanusInstalled();
test.skip(!installed && process.env.JANUS_REQUIRED !== '1', 'needs Debian’s janus (apt-get install janus)');

type Person = { context: BrowserContext; page: Page; name: string };

/** Signs a person in by their token (as the login page would store it) and opens the meeting. */
async function openMeeting(
  browser: Browser,
  baseURL: string,
  roomId: string,
  session: { token: string; role: string },
) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  await context.addInitScript((stored) => {
    localStorage.setItem('token', stored.token);
    localStorage.setItem('userType', stored.role);
  }, session);
  // Every connection the page makes, for getStats() below (the app keeps them private).
  await context.addInitScript(recordPeerConnections);
  const page = await context.newPage();
  await page.goto(`/dashboard/${session.role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`);
  // The others' meetings keep both cores busy: the page may take a while to load.
  await expect(page.getByText('Loading…')).toHaveCount(0, { timeout: 60_000 });
  if (session.role === 'student') await enterStudyMode(page);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  return { context, page };
}

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
    .poll(async () => (first = await playing(null)).filter((time) => time < 0).length, { timeout: 30_000 })
    .toBe(0);
  await expect.poll(async () => (await playing(first)).filter((time) => time < 0).length).toBe(0);
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

test('eight people meet through Janus: all see all, one camera stream each, mute-all, remove', async ({
  baseURL: _unused,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: the SFU is the subject, not the screen size');
  test.setTimeout(480_000);
  // Eight cameras encoded and 56 decoded on two cores: the fake cameras run at 10 frames a second.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream=fps=10'],
  });
  const apiSecret = randomBytes(18).toString('hex');
  const janus: JanusProcess = await startJanus({
    port: await freePort(),
    host: '127.0.0.1',
    apiSecret,
    rtpPortRange: '40000-40999',
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'studyhall-janus-e2e-'));
  const instance = new AppInstance(await freePort(), {
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
  });
  const people: Person[] = [];
  try {
    await instance.start();
    const setup = await browser.newContext({ baseURL: instance.baseUrl });
    const { teacher, token, klass, roomId } = await teacherWithMeetingRoom(setup.request);
    const sessions = [{ token, role: 'teacher', name: teacher.name }];
    for (let index = 1; index < PEOPLE; index += 1) {
      const student = await registeredStudent(setup.request, { classCode: klass.joinCode });
      const login = await setup.request.post('/api/student/login', {
        data: { rollNumber: student.rollNumber, password: student.password },
      });
      expect(login.ok(), await login.text()).toBe(true);
      sessions.push({ token: (await login.json()).data as string, role: 'student', name: student.name });
    }
    await setup.close();

    for (const session of sessions) {
      const { context, page } = await openMeeting(browser, instance.baseUrl, roomId, session);
      people.push({ context, page, name: session.name });
    }

    // Everyone sees the seven others' video frames (each page checked in one go: 56 videos).
    for (const person of people) {
      await expect(person.page.getByRole('group')).toHaveCount(PEOPLE, { timeout: 30_000 });
      const others = people.filter((other) => other !== person).map((other) => `${other.name}'s camera`);
      await expectVideosPlaying(person.page, others);
    }

    // Each browser sends its camera as one published stream: at most its simulcast layers (3),
    // never one per viewer as in the mesh (7 here).
    for (const person of people) {
      const streams = await sentVideoStreams(person.page);
      expect(streams, `${person.name} sends video`).toBeGreaterThan(0);
      expect(streams, `${person.name} sends at most its simulcast layers`).toBeLessThanOrEqual(3);
    }

    // The teacher's gallery of seven small tiles receives each camera's lowest simulcast layer;
    // the speaker view's one large tile its highest (Janus switches on our server's word).
    const [teacherPage, speakers] = [people[0]!.page, [people[1]!, people[2]!]];
    const widestReceived = async () => Math.max(0, ...(await receivedVideoWidths(teacherPage)));
    await expect.poll(widestReceived, { timeout: 20_000 }).toBeLessThan(FAKE_CAMERA_WIDTH);
    await teacherPage.getByRole('button', { name: 'Speaker view' }).click();
    await expect.poll(widestReceived, { timeout: 20_000 }).toBe(FAKE_CAMERA_WIDTH);
    await teacherPage.getByRole('button', { name: 'Speaker view' }).click();

    // Two students speak up; the teacher mutes everyone: their microphones go off, and the
    // audio reaching the teacher through Janus goes silent.
    for (const speaker of speakers) {
      const microphone = speaker.page.getByRole('button', { name: 'Microphone', exact: true });
      await microphone.click();
      await expect(microphone).toHaveAttribute('aria-pressed', 'true');
      await expect(
        teacherPage.getByRole('group', { name: speaker.name, exact: true }).getByText('Microphone off'),
      ).toHaveCount(0);
    }
    await expect.poll(() => audioEnergyGrowth(teacherPage), { timeout: 30_000 }).toBeGreaterThan(0);
    await teacherPage.getByRole('button', { name: 'Participants' }).click();
    const panel = teacherPage.getByRole('complementary');
    await panel.getByRole('button', { name: 'Mute everyone' }).click();
    for (const speaker of speakers) {
      await expect(speaker.page.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute(
        'aria-pressed',
        'false',
      );
      await expect(
        teacherPage.getByRole('group', { name: speaker.name, exact: true }).getByText('Microphone off'),
      ).toBeAttached();
    }
    await expect.poll(() => audioEnergyGrowth(teacherPage), { timeout: 30_000 }).toBe(0);

    // The teacher removes one student: their page says so, everyone else's tile goes, and the
    // same link does not let them back.
    const removed = people[PEOPLE - 1]!;
    await panel.getByRole('button', { name: `Remove ${removed.name}` }).click();
    await teacherPage
      .getByRole('alertdialog', { name: `Remove ${removed.name}?` })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(removed.page.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();
    await teacherPage.getByRole('button', { name: 'Close participants' }).click(); // its rows are groups too
    for (const person of people.slice(0, PEOPLE - 1)) {
      await expect(person.page.getByRole('group')).toHaveCount(PEOPLE - 1);
    }
    await removed.page.reload();
    await enterStudyMode(removed.page);
    await removed.page.getByRole('button', { name: 'Join meeting' }).click();
    await expect(removed.page.getByRole('heading', { name: 'You were removed from this meeting' })).toBeVisible();

    // Someone leaves: the others' tiles go, and nobody else's video stops.
    await people[PEOPLE - 2]!.page.getByRole('button', { name: 'Leave' }).click();
    await expect(teacherPage.getByRole('group')).toHaveCount(PEOPLE - 2);
    await expectVideosPlaying(teacherPage, [`${people[1]!.name}'s camera`]);
  } finally {
    for (const person of people) await person.context.close();
    await instance.stop();
    await janus.stop();
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
