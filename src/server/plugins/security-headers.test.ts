import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classIdTaughtBy, signUpTeacher } from '../testing/actors.ts';
import { multipartBody, SAMPLE_FILES } from '../testing/multipart.ts';
import { EXPECTED_SECURITY_HEADERS as EXPECTED_HEADERS, expectSecurityHeaders } from '../testing/security-headers.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from './security-headers.ts';

/** The policy as the browser reads it: directive name -> its sources. */
function directivesOf(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

describe('the policy itself', () => {
  it('is strict: our origin only, no inline or eval script, no plugins, no base, nobody frames us', () => {
    const directives = directivesOf(CONTENT_SECURITY_POLICY);
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'"],
      'media-src': ["'self'"],
      'connect-src': ["'self'"],
      'frame-src': [
        "'self'",
        'https://www.youtube-nocookie.com',
        'https://player.vimeo.com',
        'https://fast.wistia.net',
      ],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    });
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|data:|blob:|\*/);
  });

  it('allows camera, microphone and screen capture to our origin only, and turns off what we never use', () => {
    const features = new Map(PERMISSIONS_POLICY.split(', ').map((entry) => entry.split('=') as [string, string]));
    expect(features.get('camera')).toBe('(self)');
    expect(features.get('microphone')).toBe('(self)');
    expect(features.get('display-capture')).toBe('(self)');
    const allowed = [...features].filter(([, allowlist]) => allowlist !== '()').map(([name]) => name);
    expect(allowed.sort()).toEqual(['camera', 'display-capture', 'microphone']);
    for (const unused of ['geolocation', 'payment', 'usb', 'serial', 'hid', 'midi']) {
      expect(features.get(unused)).toBe('()');
    }
  });
});

const SPA_SHELL =
  '<!doctype html><title>StudyHall</title><script type="module" src="/assets/index-abc123.js"></script>';
const LANDING_PAGE =
  '<!doctype html><title>StudyHall</title><h1>Landing</h1><script type="module" src="/assets/landing-def456.js"></script>';

describe('security headers on every response', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    // A tiny built client: the shell, the prerendered landing page, a hashed asset and a public file.
    clientDir = await mkdtemp(path.join(tmpdir(), 'studyhall-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), SPA_SHELL);
    await writeFile(path.join(clientDir, 'landing.html'), LANDING_PAGE);
    await writeFile(path.join(clientDir, 'assets', 'index-abc123.js'), 'console.log("hello");');
    await writeFile(path.join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await createTestApp({ clientDir });
    t.app.get('/api/test/explode', { config: { policy: { caller: 'anyone', touches: ['nothing'] } } }, async () => {
      throw new Error('kaboom');
    });
  });
  afterAll(async () => {
    await t.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it.each([
    ['the health check', '/api/health', 200],
    ['a public API answer', '/api/quote', 200],
    ['an API call without a token', '/api/teacher/classes', 401],
    ['an API address that does not exist', '/api/nothing-here', 404],
    ['a malformed address (answered before routing)', '/api/%E0%A4%A', 400],
    ['an unexpected error', '/api/test/explode', 500],
  ])('%s', async (_label, url, status) => {
    const response = await t.call({ method: 'GET', url });
    expect(response.status).toBe(status);
    expectSecurityHeaders(response.headers);
  });

  it('a validation error and a broken JSON body', async () => {
    const invalid = await t.call({ method: 'POST', url: '/api/teacher/login', payload: { email: 'nope' } });
    expect(invalid.status).toBe(400);
    expectSecurityHeaders(invalid.headers);
    const broken = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.status).toBe(400);
    expectSecurityHeaders(broken.headers);
  });

  it.each([
    ['the prerendered landing page at the root', ['/', '/?from=newsletter'], LANDING_PAGE],
    [
      'the SPA shell on every other page route',
      ['/auth', '/auth/teacher/login', '/dashboard/teacher/all-quiz'],
      SPA_SHELL,
    ],
  ])('%s, revalidated on every visit', async (_label, urls, page) => {
    for (const url of urls) {
      const response = await t.call({ method: 'GET', url });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.raw, url).toBe(page);
      expectSecurityHeaders(response.headers);
    }
  });

  it('a hashed asset, a public file and a missing asset', async () => {
    const asset = await t.call({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expectSecurityHeaders(asset.headers);
    const icon = await t.call({ method: 'GET', url: '/favicon.svg' });
    expect(icon.status).toBe(200);
    expectSecurityHeaders(icon.headers);
    const missing = await t.call({ method: 'GET', url: '/assets/gone-123.js' });
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
  });

  it('an uploaded file keeps its own sandboxing policy, with the other headers added', async () => {
    const teacher = await signUpTeacher(t);
    const upload = multipartBody({ classId: await classIdTaughtBy(t, teacher, 'Headers') }, [
      { name: 'notes.png', content: SAMPLE_FILES.png() },
    ]);
    const uploaded = await t.call({
      method: 'POST',
      url: '/api/teacher/upload-resource',
      headers: { ...bearer(teacher.token), ...upload.headers },
      payload: upload.payload,
    });
    expect(uploaded.status).toBe(201);
    const file = await t.call({ method: 'GET', url: uploaded.body.data.fileURL });
    expect(file.status).toBe(200);
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const { 'content-security-policy': _ours, ...others } = EXPECTED_HEADERS;
    expect(file.headers).toMatchObject(others);
  });
});

describe('a build without the prerendered landing page (older build)', () => {
  it('answers / with the SPA shell, whose lazy landing route shows the same page', async () => {
    const clientDir = await mkdtemp(path.join(tmpdir(), 'studyhall-client-'));
    await writeFile(path.join(clientDir, 'index.html'), SPA_SHELL);
    const t = await createTestApp({ clientDir });
    try {
      const response = await t.call({ method: 'GET', url: '/' });
      expect(response.status).toBe(200);
      expect(response.raw).toBe(SPA_SHELL);
      expectSecurityHeaders(response.headers);
    } finally {
      await t.close();
      await rm(clientDir, { recursive: true, force: true });
    }
  });
});

describe('Strict-Transport-Security', () => {
  const secure = { 'x-forwarded-proto': 'https', host: 'school.example.org' };

  it('is sent behind a trusted TLS proxy, for a real host name', async () => {
    const t = await createTestApp({ trustProxy: 1 });
    try {
      const response = await t.call({ method: 'GET', url: '/api/health', headers: secure });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(response.headers).toMatchObject(EXPECTED_HEADERS);
      // Plain HTTP, and HTTPS to localhost or an address, never pin anything.
      for (const headers of [
        { host: 'school.example.org' },
        { 'x-forwarded-proto': 'http', host: 'school.example.org' },
        { 'x-forwarded-proto': 'https', host: 'localhost:3000' },
        { 'x-forwarded-proto': 'https', host: 'app.localhost' },
        { 'x-forwarded-proto': 'https', host: '127.0.0.1:3000' },
        { 'x-forwarded-proto': 'https', host: '[::1]:3000' },
      ]) {
        const plain = await t.call({ method: 'GET', url: '/api/health', headers });
        expect(plain.headers['strict-transport-security'], JSON.stringify(headers)).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });

  it('is not sent when X-Forwarded-Proto comes from a client we do not trust', async () => {
    for (const trustProxy of [undefined, ['10.0.0.7']]) {
      const t = await createTestApp({ trustProxy });
      try {
        const response = await t.call({
          method: 'GET',
          url: '/api/health',
          headers: secure,
          remoteAddress: '192.0.2.9',
        });
        expect(response.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await t.close();
      }
    }
  });
});
