import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { isJanusInstalled, startJanus, type JanusProcess } from '../../scripts/janus.ts';
import { freePort } from '../../src/server/testing/server-process.ts';
import { enterStudyMode } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { AppInstance } from './app-instances.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectVideoFlowing } from './meeting-actors.ts';

/**
 * Issue 21: a class meets through the Janus SFU (decision 037). Eight people in one room, in
 * Chromium with fake cameras: everyone sees the seven others' video, and each browser sends its
 * camera once (at most its simulcast layers), where the mesh would send it seven times.
 *
 * Starts its own Janus (Debian's, with deploy/janus's config) and an app instance with JANUS_URL.
 */
const PEOPLE = 8;
const installed = isJanusInstalled();
test.skip(!installed && process.env.JANUS_REQUIRED !== '1', 'needs Debian’s janus (apt-get install janus)');
test.skip(
  Boolean(process.env.E2E_BASE_URL),
  'starts its own Janus and instance; the server at E2E_BASE_URL is not its subject',
);

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
    // Every connection the page makes, for getStats() below (the app keeps them private).
    const recorded: RTCPeerConnection[] = [];
    Object.assign(window, { __meetingConnections: recorded });
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        recorded.push(this);
      }
    };
  }, session);
  const page = await context.newPage();
  await page.goto(`/dashboard/${session.role}/meet/${roomId}?meetingId=${roomId}&webcamEnabled=true&micEnabled=true`);
  if (session.role === 'student') await enterStudyMode(page);
  await page.getByRole('button', { name: 'Join meeting' }).click();
  await expect(page.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
  return { context, page };
}

/** The outbound video streams of the page's connections that carry bytes: what this browser uploads. */
async function sentVideoStreams(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const connections =
      (window as unknown as { __meetingConnections?: RTCPeerConnection[] }).__meetingConnections ?? [];
    let count = 0;
    for (const connection of connections) {
      if (connection.connectionState === 'closed') continue;
      const stats = await connection.getStats();
      stats.forEach((report: { type: string; kind?: string; bytesSent?: number }) => {
        if (report.type === 'outbound-rtp' && report.kind === 'video' && (report.bytesSent ?? 0) > 0) count += 1;
      });
    }
    return count;
  });
}

test('eight people meet through Janus: everyone sees the others, each camera is sent once', async ({
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: the SFU is the subject, not the screen size');
  test.setTimeout(240_000);
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

    // Everyone sees the seven others' video frames.
    for (const person of people) {
      await expect(person.page.getByRole('group')).toHaveCount(PEOPLE, { timeout: 30_000 });
      for (const other of people) {
        if (other === person) continue;
        await expectVideoFlowing(person.page.getByRole('group', { name: other.name, exact: true }));
      }
    }
    await expectAccessible(people[0]!.page, 'meeting through Janus');

    // Each browser sends its camera as one published stream: at most its simulcast layers (3),
    // never one per viewer as in the mesh (7 here).
    for (const person of people) {
      const streams = await sentVideoStreams(person.page);
      expect(streams, `${person.name} sends video`).toBeGreaterThan(0);
      expect(streams, `${person.name} sends at most its simulcast layers`).toBeLessThanOrEqual(3);
    }

    // Someone leaves: the others' tiles go, and nobody else's video stops.
    await people[PEOPLE - 1]!.page.getByRole('button', { name: 'Leave' }).click();
    await expect(people[0]!.page.getByRole('group')).toHaveCount(PEOPLE - 1);
    await expectVideoFlowing(people[0]!.page.getByRole('group', { name: people[1]!.name, exact: true }));
  } finally {
    for (const person of people) await person.context.close();
    await instance.stop();
    await janus.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
