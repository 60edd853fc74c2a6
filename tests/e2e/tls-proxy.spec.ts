import { TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, request as apiRequest, type APIRequestContext, type Browser } from '@playwright/test';
import {
  DEPLOY_SITE_PATH,
  findNginx,
  privateNginxConfig,
  PROXY_INCLUDE_PATH,
  spawnNginx,
} from '../../scripts/nginx.ts';
import { eventually, patience } from '../../src/server/testing/patience.ts';
import { freePort } from '../../src/server/testing/server-process.ts';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from '../chromium-args.ts';
import { logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithMeetingRoom } from './api-setup.ts';
import { AppInstance } from './app-instances.ts';
import { expect, test } from './fixtures.ts';
import { expectVideoFlowing, joinRoomFromEmeet } from './meeting-actors.ts';

/**
 * Issue 31 point 6 (decision 053): StudyHall as a school deploys it, behind nginx with HTTPS,
 * configured by the very files of deploy/nginx (studyhall.conf with its include
 * studyhall-proxy.conf), changed only where a school fills them in (its name, its certificate,
 * made here by openssl and self-signed, the ports) and by one line to tell addresses apart
 * (PROXY_ADDRESS). The browser reaches nginx by a name (studyhall.test, mapped to 127.0.0.1),
 * so the page is a secure context because it is HTTPS, as on a real server, not because it is
 * localhost. Through the proxy: plain HTTP is sent to HTTPS, a teacher and a student meet with
 * their cameras (the meeting socket is upgraded), a 20 MB file uploads (the body limit), and the
 * app, trusting nginx (TRUST_PROXY), sees the browser's address and the HTTPS of the request.
 */

const SERVER_NAME = 'studyhall.test';
/** nginx listens here, under SERVER_NAME for the browser. */
const NGINX_ADDRESS = '127.0.0.1';
/** The browser's address as nginx sees it: a connection to 127.0.0.1 comes from 127.0.0.1. */
const CLIENT_ADDRESS = '127.0.0.1';
/**
 * nginx connects to the app from this address (proxy_bind, added for the test only), so that the
 * app's log tells the browser's address from the proxy's; TRUST_PROXY names it.
 */
const PROXY_ADDRESS = '127.0.0.3';
const UPLOAD_BYTES = 20 * 1024 * 1024;

/** deploy/nginx/studyhall.conf as a school fills it in, with this run's ports, certificate and folders. */
function filledInSite(folder: string, ports: { app: number; http: number; https: number }): string {
  const replacements: [string, string][] = [
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${ports.app};`],
    ['listen 80;', `listen ${NGINX_ADDRESS}:${ports.http};`],
    ['listen [::]:80;', ''],
    ['listen 443 ssl;', `listen ${NGINX_ADDRESS}:${ports.https} ssl;`],
    ['listen [::]:443 ssl;', ''],
    ['/etc/letsencrypt/live/studyhall.example.org/fullchain.pem', path.join(folder, 'certificate.pem')],
    ['/etc/letsencrypt/live/studyhall.example.org/privkey.pem', path.join(folder, 'key.pem')],
    ['/var/log/nginx/studyhall.access.log', path.join(folder, 'access.log')],
    ['/var/www/letsencrypt', path.join(folder, 'acme')],
    ['include snippets/studyhall-proxy.conf;', `proxy_bind ${PROXY_ADDRESS};\n  include ${PROXY_INCLUDE_PATH};`],
    ['studyhall.example.org', SERVER_NAME],
  ];
  let site = readFileSync(DEPLOY_SITE_PATH, 'utf8');
  for (const [placeholder, value] of replacements) {
    expect(site, `deploy/nginx/studyhall.conf no longer has "${placeholder}": update this test`).toContain(placeholder);
    site = site.replaceAll(placeholder, value);
  }
  return site;
}

/** A self-signed certificate for SERVER_NAME, made now (nothing secret is committed). */
function makeCertificate(folder: string) {
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${SERVER_NAME}`,
    '-addext',
    `subjectAltName=DNS:${SERVER_NAME}`,
    '-keyout',
    path.join(folder, 'key.pem'),
    '-out',
    path.join(folder, 'certificate.pem'),
  ]);
}

// One run is enough: the proxy is the subject, not the screen size.
test.skip(({ isMobile }) => isMobile, 'run in the desktop project only');
// CI installs nginx (.ci/run); its absence must fail there.
test.skip(!findNginx() && !process.env.CI, 'needs nginx (apt-get install -y nginx)');

/** A plain HTTP request to nginx for SERVER_NAME: its status and Location. */
function plainHttpGet(port: number, pathname: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: NGINX_ADDRESS, port, path: pathname, headers: { host: SERVER_NAME } }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, location: response.headers.location });
    })
      .on('error', reject)
      .end();
  });
}

test('behind nginx with HTTPS (deploy/nginx): redirect, a meeting with cameras, a 20 MB upload, the client seen', async () => {
  test.setTimeout(patience(120_000));
  const nginxPath = findNginx();
  expect(nginxPath, 'nginx is not installed (apt-get install -y nginx)').toBeDefined();

  const folder = mkdtempSync(path.join(tmpdir(), 'studyhall-tls-'));
  const ports = { app: await freePort(), http: await freePort(), https: await freePort() };
  let appLog = '';
  // A fresh school on the embedded database, as `npm start` runs it behind the proxy.
  const app = new AppInstance(
    ports.app,
    {
      DATA_DIR: path.join(folder, 'data'),
      DATABASE_URL: '',
      TRUST_PROXY: PROXY_ADDRESS,
      SETUP_CODE: TEST_SETUP_CODE, // the first run's code the scenarios send (decision 050)
      LOG_LEVEL: 'info', // request lines, with the address the app believes
      QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
    },
    { onOutput: (text) => (appLog += text) },
  );
  let nginx: ChildProcess | undefined;
  let browser: Browser | undefined;
  let api: APIRequestContext | undefined;
  try {
    makeCertificate(folder);
    mkdirSync(path.join(folder, 'acme'));
    const configPath = path.join(folder, 'nginx.conf');
    writeFileSync(configPath, privateNginxConfig(folder, filledInSite(folder, ports)));
    await app.start();
    nginx = spawnNginx(nginxPath!, folder, configPath);
    const httpsOrigin = `https://${SERVER_NAME}:${ports.https}`;
    // Set-up through the API goes to nginx's address: Node does not know the name.
    api = await apiRequest.newContext({ baseURL: `https://${NGINX_ADDRESS}:${ports.https}`, ignoreHTTPSErrors: true });
    await eventually(
      'nginx to answer /api/health over HTTPS',
      async () => (await api!.get('/api/health').catch(() => undefined))?.ok() ?? false,
      15_000,
      100,
    );

    // Plain HTTP is only a redirect to HTTPS (the app is never served there).
    expect(await plainHttpGet(ports.http, '/auth/teacher/login?next=1')).toEqual({
      status: 301,
      location: `https://${SERVER_NAME}/auth/teacher/login?next=1`,
    });

    // A 20 MB file passes the proxy (nginx's own default refuses anything over 1 MB).
    const { teacher, token, klass, roomId } = await teacherWithMeetingRoom(api);
    const student = await registeredStudent(api, { classCode: klass.joinCode });
    const pdf = readFileSync('tests/e2e/fixtures/fractions-worksheet.pdf');
    const padded = Buffer.concat([pdf, Buffer.from(`%${' '.repeat(UPLOAD_BYTES - pdf.length - 2)}\n`)]);
    const upload = await api.post('/api/teacher/upload-resource', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        classId: klass.id,
        file: { name: 'big-worksheet.pdf', mimeType: 'application/pdf', buffer: padded },
      },
      timeout: patience(30_000),
    });
    expect(upload.status(), await upload.text()).toBe(201);
    expect((await upload.json()).data.size).toBe(UPLOAD_BYTES);

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        ...CHROMIUM_ARGS,
        ...FAKE_MEDIA_ARGS,
        `--host-resolver-rules=MAP ${SERVER_NAME} ${NGINX_ADDRESS}`,
        // The certificate is self-signed: a school's comes from Let's Encrypt.
        '--ignore-certificate-errors',
      ],
    });
    const contextOptions = { baseURL: httpsOrigin, ignoreHTTPSErrors: true, viewport: { width: 1280, height: 800 } };
    const teacherPage = await (await browser.newContext(contextOptions)).newPage();
    const landing = await teacherPage.goto('/');
    // The app believed nginx's X-Forwarded-Proto: https (TRUST_PROXY), so it asks for HTTPS from now on.
    expect(landing?.headers()['strict-transport-security']).toMatch(/max-age=\d+/);
    // Cameras and microphones are offered to secure contexts only: HTTPS makes this page one.
    expect(await teacherPage.evaluate(() => window.isSecureContext && Boolean(navigator.mediaDevices))).toBe(true);

    // The teacher and a student meet through the proxy: the meeting socket is upgraded, and
    // each sees the other's camera.
    await logInTeacherThroughUi(teacherPage, teacher);
    await teacherPage.goto(`/dashboard/teacher/meet/${roomId}?meetingId=${roomId}`);
    await teacherPage.getByRole('button', { name: 'Join meeting' }).click();
    await expect(teacherPage.getByRole('toolbar', { name: 'Meeting controls' })).toBeVisible();
    const studentPage = await (await browser.newContext(contextOptions)).newPage();
    await logInStudentThroughUi(studentPage, student);
    await joinRoomFromEmeet(studentPage, roomId);
    await expectVideoFlowing(studentPage.getByRole('group', { name: teacher.name, exact: true }));
    await expectVideoFlowing(teacherPage.getByRole('group', { name: student.name, exact: true }));

    // The app counted the requests that came through nginx under the browser's address, not
    // nginx's (TRUST_PROXY): it throttles sign-ins per person, not the whole school as one.
    const proxiedAddresses = new Set(
      appLog
        .split('\n')
        .filter((line) => line.includes(`"host":"${SERVER_NAME}:`))
        .map((line) => (JSON.parse(line) as { req: { remoteAddress: string } }).req.remoteAddress),
    );
    expect([...proxiedAddresses]).toEqual([CLIENT_ADDRESS]);
  } finally {
    await browser?.close();
    await api?.dispose();
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGTERM');
      await exited;
    }
    await app.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
