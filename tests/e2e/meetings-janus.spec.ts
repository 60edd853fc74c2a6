import { loadavg } from 'node:os';
import type { BrowserContext, Page } from '@playwright/test';
import { readRtpStreams } from '../meeting-stats.ts';
import { isJanusInstalled } from '../../scripts/janus.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { enterStudyMode } from './actors.ts';
import { expect, test } from './fixtures.ts';
import {
  classSessions,
  cleanupsAfterEach,
  expectVideosPlaying,
  launchWithCamera,
  openMeeting,
  SMALL_CAMERA,
  socketCloses,
  startAppWithJanus,
  testFolder,
  audioEnergyGrowth,
  type SocketWindow,
} from './janus-meetings.ts';

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
/** How long one page holds its answer to the removal's update: past the 15 s that closed pages before. */
const ANSWER_DELAY_MS = 25_000;
const installed = isJanusInstalled();
test.skip(!installed && process.env.JANUS_REQUIRED !== '1', 'needs Debian’s janus (apt-get install janus)');

type Person = { context: BrowserContext; page: Page; name: string };

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

const cleanups = cleanupsAfterEach();

test('eight slow laptops meet through Janus: all see all, one camera stream each, mute-all, remove, lock', async ({
  baseURL: _unused,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: the SFU is the subject, not the screen size');
  // Not in .ci/run yet: eight throttled pages need more than two cores (decision 047's figures);
  // `E2E_CLASS_MEETING=1` runs it.
  test.skip(process.env.E2E_CLASS_MEETING !== '1', 'the eight-laptop class runs with E2E_CLASS_MEETING=1');
  // About 3 minutes on a quiet two-core machine (decision 047); more under load.
  test.setTimeout(patience(240_000));
  const folder = testFolder(cleanups);
  const browser = await launchWithCamera(folder, SMALL_CAMERA, cleanups);
  const { instance } = await startAppWithJanus(folder, ['40000-40999'], cleanups);
  const people: Person[] = [];
  // Where the time goes, in the run's log: each step's end, with the machine's load then.
  const startedAt = Date.now();
  const mark = (step: string) =>
    console.log(
      `[class meeting] ${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${step} (load ${loadavg()[0]!.toFixed(1)})`,
    );
  // The third person plays a modified page that ignores the teacher's mute.
  const { sessions, roomId } = await classSessions(browser, instance.baseUrl, PEOPLE - 1, (index) => index === 2);
  mark('accounts ready');

  // Seven are in (each page slowed once joined); the eighth joins a room of slow laptops.
  for (const session of sessions) {
    const { context, page } = await openMeeting(browser, instance.baseUrl, roomId, session, {
      cpuSlowdown: CPU_SLOWDOWN,
      onLoaded: () => mark('  page loaded'),
    });
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
  await expect.poll(widestReceived, { timeout: patience(20_000) }).toBeLessThan(SMALL_CAMERA.width);
  await teacherPage.getByRole('button', { name: 'Speaker view' }).click();
  await expect.poll(widestReceived, { timeout: patience(20_000) }).toBe(SMALL_CAMERA.width);
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
