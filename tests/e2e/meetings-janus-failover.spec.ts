import type { Page } from '@playwright/test';
import { readRtpStreams } from '../meeting-stats.ts';
import { isJanusInstalled } from '../../scripts/janus.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { expect, test } from './fixtures.ts';
import {
  audioEnergyGrowth,
  classSessions,
  cleanupsAfterEach,
  expectVideosPlaying,
  launchWithCamera,
  openMeeting,
  openPreJoin,
  SMALL_CAMERA,
  socketCloses,
  startAppWithJanus,
  testFolder,
} from './janus-meetings.ts';

/**
 * Decisions 037, 038 and 044 in real browsers, small enough for CI's desktop run: a teacher and
 * two students meet through Janus, the app listing TWO Janus servers in JANUS_URL.
 *
 * - Each page decodes the two others' video, every connection through the one Janus that
 *   holds the room (each Janus has its own RTP port range: the far end's port says which).
 * - "Mute everyone" silences the students at Janus: the sound reaching the teacher stops, also
 *   from the page that ignores the mute and keeps its microphone on (VideoRoom `moderate`).
 * - The teacher locks the room and a student raises a hand; then the Janus holding the room is
 *   killed (SIGKILL). Every page shows the moving note and by itself decodes the others' video
 *   again, now through the other Janus, with no reload and no socket closed; the muted page is
 *   still not heard there, the lock still refuses a newcomer, and the teacher still sees the hand.
 *
 * Starts its own Janus servers and app instance (janus-meetings.ts), whatever E2E_BASE_URL says:
 * it kills one of them.
 */
test.skip(!isJanusInstalled() && process.env.JANUS_REQUIRED !== '1', 'needs Debian’s janus (apt-get install janus)');

/** Each Janus's UDP ports for media, in JANUS_URL's order (the first gets the new room). */
const RTP_PORT_RANGES = ['41000-41499', '41500-41999'];
/** What every page says while its room moves to another Janus (meeting-session.ts, 'sfu-moving'). */
const MOVING_NOTE = 'The video server stopped. Moving the meeting to another one…';

type Person = { page: Page; name: string };
type MarkedWindow = Window & { __statusTexts?: string[]; __sameDocument?: boolean };

/** Which Janus of the test (its index in RTP_PORT_RANGES) uses this port; -1: none of them. */
function serverOfPort(port: number): number {
  return RTP_PORT_RANGES.findIndex((range) => {
    const [low, high] = range.split('-').map(Number) as [number, number];
    return port >= low && port <= high;
  });
}

/**
 * Where the page's media goes now: the Janus servers (by index) its open connections reach, and
 * how many cameras it decodes (inbound video with frames).
 */
async function mediaRoute(page: Page): Promise<{ servers: number[]; cameras: number }> {
  const { streams } = await readRtpStreams(page);
  const servers = new Set(
    streams.flatMap((stream) => (stream.remotePort === undefined ? [] : [serverOfPort(stream.remotePort)])),
  );
  const cameras = streams.filter(
    (stream) => stream.direction === 'inbound' && stream.kind === 'video' && stream.frames > 0,
  );
  return { servers: [...servers].sort(), cameras: cameras.length };
}

/**
 * From now on, the page keeps every text its status lines show (some show for a moment only: the
 * move may take well under a second), and a mark that a reload would wipe.
 */
const watchStatusLines = (page: Page) =>
  page.evaluate(() => {
    const own = window as MarkedWindow;
    const seen: string[] = [];
    own.__statusTexts = seen;
    own.__sameDocument = true;
    new MutationObserver(() => {
      for (const element of document.querySelectorAll('[role="status"]')) {
        const text = element.textContent?.trim() ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });

const statusTexts = (page: Page) => page.evaluate(() => (window as MarkedWindow).__statusTexts ?? []);
const isSameDocument = (page: Page) => page.evaluate(() => (window as MarkedWindow).__sameDocument === true);

const cleanups = cleanupsAfterEach();

test('three meet through two Janus: all see all, the mute holds at Janus, a killed Janus moves the room', async ({
  baseURL: _unused,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: the SFU is the subject, not the screen size');
  test.setTimeout(patience(150_000));
  const folder = testFolder(cleanups);
  const browser = await launchWithCamera(folder, SMALL_CAMERA, cleanups);
  const { janus, instance } = await startAppWithJanus(folder, RTP_PORT_RANGES, cleanups);
  // The third person (the second student) plays a modified page that ignores the teacher's mute;
  // the fourth comes once the room is locked.
  const { sessions, roomId } = await classSessions(browser, instance.baseUrl, 3, (index) => index === 2);
  const newcomer = sessions.pop()!;
  const people: Person[] = [];
  for (const session of sessions) {
    const { context, page } = await openMeeting(browser, instance.baseUrl, roomId, session);
    cleanups.push(() => context.close());
    people.push({ page, name: session.name });
  }
  const [teacher, honest, ignoring] = people as [Person, Person, Person];
  const othersOf = (person: Person) => people.filter((other) => other !== person);
  const camerasOf = (person: Person) => othersOf(person).map((other) => `${other.name}'s camera`);

  // Everyone decodes the two others' video, and all of it goes through one Janus.
  const holders = new Set<number>();
  for (const person of people) {
    for (const other of othersOf(person)) {
      await expect(person.page.getByRole('group', { name: other.name, exact: true })).toBeVisible();
    }
    await expectVideosPlaying(person.page, camerasOf(person));
    let route = { servers: [] as number[], cameras: 0 };
    await expect
      .poll(async () => (route = await mediaRoute(person.page)), { timeout: patience(20_000) })
      .toMatchObject({ servers: [expect.any(Number)], cameras: 2 });
    holders.add(route.servers[0]!);
  }
  expect([...holders], 'every page on the same Janus').toHaveLength(1);
  const holding = [...holders][0]!;
  expect(holding, 'a Janus of the test').toBeGreaterThanOrEqual(0);
  const spare = 1 - holding;

  // Both students speak up; the teacher mutes everyone: the honest page turns its microphone off,
  // the modified one does not, and the sound reaching the teacher through Janus stops all the same.
  for (const student of [honest, ignoring]) {
    const microphone = student.page.getByRole('button', { name: 'Microphone', exact: true });
    await microphone.click();
    await expect(microphone).toHaveAttribute('aria-pressed', 'true');
    await expect(
      teacher.page.getByRole('group', { name: student.name, exact: true }).getByText('Microphone off'),
    ).toHaveCount(0);
  }
  await expect.poll(() => audioEnergyGrowth(teacher.page), { timeout: patience(30_000) }).toBeGreaterThan(0);
  await teacher.page.getByRole('button', { name: 'Participants' }).click();
  const panel = teacher.page.getByRole('complementary');
  await panel.getByRole('button', { name: 'Mute everyone' }).click();
  for (const student of [honest, ignoring]) {
    await expect(student.page.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute(
      'aria-pressed',
      student === ignoring ? 'true' : 'false',
    );
    await expect(
      teacher.page.getByRole('group', { name: student.name, exact: true }).getByText('Microphone off'),
    ).toBeAttached();
  }
  await expect.poll(() => audioEnergyGrowth(teacher.page), { timeout: patience(30_000) }).toBe(0);

  // The teacher locks the room and a student raises a hand: everyone sees both.
  await panel.getByRole('button', { name: 'Lock room' }).click();
  await expect(panel.getByRole('button', { name: 'Lock room' })).toHaveAttribute('aria-pressed', 'true');
  for (const person of people) await expect(person.page.getByText('Room locked').first()).toBeVisible();
  await honest.page.getByRole('button', { name: 'Raise hand' }).click();
  await expect(honest.page.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true');
  const raisedHands = panel.getByRole('region', { name: 'Raised hands' }).getByRole('listitem');
  await expect(raisedHands).toHaveText([honest.name]);

  // The Janus holding the room dies. Every page says the meeting is moving, then by itself
  // decodes the others' video again, through the other Janus, in the same document and socket.
  for (const person of people) await watchStatusLines(person.page);
  await janus[holding]!.kill();
  for (const person of people) {
    await expect.poll(() => statusTexts(person.page), { timeout: patience(30_000) }).toContain(MOVING_NOTE);
    await expect(person.page.getByText(MOVING_NOTE)).toHaveCount(0, { timeout: patience(30_000) });
  }
  for (const person of people) {
    await expect
      .poll(() => mediaRoute(person.page), { timeout: patience(30_000) })
      .toEqual({ servers: [spare], cameras: 2 });
    await expectVideosPlaying(person.page, camerasOf(person));
    expect(await isSameDocument(person.page), `${person.name}'s page was not reloaded`).toBe(true);
    expect(await socketCloses(person.page), `${person.name}'s meeting sockets closed`).toEqual([]);
  }

  // The mute holds on the new Janus: the honest student is heard when she unmutes (sound flows
  // through it), and once she mutes again nothing reaches the teacher, though the modified page
  // still has its microphone on.
  const honestMicrophone = honest.page.getByRole('button', { name: 'Microphone', exact: true });
  await honestMicrophone.click();
  await expect(honestMicrophone).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => audioEnergyGrowth(teacher.page), { timeout: patience(30_000) }).toBeGreaterThan(0);
  await honestMicrophone.click();
  await expect(honestMicrophone).toHaveAttribute('aria-pressed', 'false');
  await expect(ignoring.page.getByRole('button', { name: 'Microphone', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(() => audioEnergyGrowth(teacher.page), { timeout: patience(30_000) }).toBe(0);

  // The room kept its lock (a newcomer of the class is refused) and its raised hand.
  for (const person of people) await expect(person.page.getByText('Room locked').first()).toBeVisible();
  const late = await openPreJoin(browser, instance.baseUrl, roomId, newcomer);
  cleanups.push(() => late.context.close());
  await late.page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(late.page.getByRole('heading', { name: 'This room is locked' })).toBeVisible();
  await expect(raisedHands).toHaveText([honest.name]);
  await expect(
    teacher.page.getByRole('group', { name: honest.name, exact: true }).getByText('Hand raised'),
  ).toBeVisible();
  await expect(honest.page.getByRole('button', { name: 'Lower hand' })).toHaveAttribute('aria-pressed', 'true');
});
