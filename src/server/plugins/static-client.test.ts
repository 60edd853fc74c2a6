import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSecurityHeaders } from '../testing/security-headers.ts';
import { buildSchoolSetup } from '../testing/factories.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

// A built client as `vite build` leaves it (decision 021): each text file beside its .br and .gz.
const SCRIPT = `export const lines = [${Array.from({ length: 200 }, (_, index) => `"line ${index}"`).join(', ')}];\n`;
const SPA_SHELL = `<!doctype html><html lang="en" dir="ltr"><head><title>StudyHall</title><script type="module" src="/assets/x-abc123.js"></script></head><body>${'<div id="root"></div>'.repeat(40)}</body></html>`;
const LANDING_PAGE = `<!doctype html><html lang="en" dir="ltr"><head><title>StudyHall</title></head><body>${'<h1>Learn together</h1>'.repeat(40)}</body></html>`;
const SMALL_ICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';
/** The shell's copies per locale, as scripts/vite-localized-shells.ts writes them. */
const shellIn = (lang: string, dir: string) => SPA_SHELL.replace('lang="en" dir="ltr"', `lang="${lang}" dir="${dir}"`);
/** The landing page's copies per locale, as scripts/vite-prerender-landing.ts writes them. */
const landingIn = (lang: string, dir: string) =>
  LANDING_PAGE.replace('lang="en" dir="ltr"', `lang="${lang}" dir="${dir}"`);
const FILES: Record<string, string> = {
  'assets/x-abc123.js': SCRIPT,
  'index.html': SPA_SHELL,
  'index.es.html': shellIn('es', 'ltr'),
  'index.ar.html': shellIn('ar', 'rtl'),
  'landing.html': LANDING_PAGE,
  'landing.es.html': landingIn('es', 'ltr'),
  'landing.ar.html': landingIn('ar', 'rtl'),
};

const ALL_ENCODINGS = 'gzip, deflate, br, zstd';
const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (bytes) => bytes,
};

/** The body as the browser reads it: decoded as its Content-Encoding says. */
function decodedBody(response: LightMyRequestResponse): string {
  const encoding = String(response.headers['content-encoding'] ?? 'identity');
  return decoders[encoding]!(response.rawPayload).toString('utf8');
}

describe('a built client with compressed copies', () => {
  let t: TestApp;
  let clientDir: string;
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers });

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'studyhall-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    for (const [file, text] of Object.entries(FILES)) {
      const fullPath = path.join(clientDir, file);
      await writeFile(fullPath, text);
      await writeFile(`${fullPath}.br`, brotliCompressSync(text));
      await writeFile(`${fullPath}.gz`, gzipSync(text, { level: 9 }));
    }
    // Too small to be worth compressing: the build leaves it alone.
    await writeFile(path.join(clientDir, 'favicon.svg'), SMALL_ICON);
    t = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it.each([
    ['brotli, preferred when the browser accepts it', ALL_ENCODINGS, 'br'],
    ['gzip, when that is all the browser accepts', 'gzip', 'gzip'],
    ['gzip, when the browser refuses brotli', 'br;q=0, gzip', 'gzip'],
    ['gzip for "any encoding"', '*', 'gzip'],
    ['the file itself to a browser that accepts neither', 'deflate', 'identity'],
    ['the file itself to a browser that asks for it', 'identity', 'identity'],
    ['the file itself without Accept-Encoding', undefined, 'identity'],
  ])('a hashed asset: %s', async (_label, acceptEncoding, encoding) => {
    const response = await get('/assets/x-abc123.js', acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decodedBody(response)).toBe(SCRIPT);
    expectSecurityHeaders(response.headers);
  });

  it.each([
    ['the landing page at /', '/', LANDING_PAGE],
    ['the SPA shell at a client-side route', '/dashboard/student', SPA_SHELL],
    ['the SPA shell at an auth page, query and all', '/auth/teacher/login?next=%2Fdashboard', SPA_SHELL],
  ])('%s, compressed, revalidated on every visit', async (_label, url, page) => {
    for (const [acceptEncoding, encoding] of [
      [ALL_ENCODINGS, 'br'],
      ['gzip', 'gzip'],
      ['', 'identity'],
    ] as const) {
      const response = await get(url, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], `${url} ${acceptEncoding}`).toBe(
        encoding === 'identity' ? undefined : encoding,
      );
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
      expect(decodedBody(response)).toBe(page);
      expectSecurityHeaders(response.headers);
    }
  });

  it('a file without compressed copies is sent as it is, and does not vary', async () => {
    const response = await get('/favicon.svg', { 'accept-encoding': ALL_ENCODINGS });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.body).toBe(SMALL_ICON);
    expectSecurityHeaders(response.headers);
  });

  it('the compressed copies have no address of their own', async () => {
    for (const url of ['/assets/x-abc123.js.br', '/assets/x-abc123.js.gz', '/index.html.br']) {
      const response = await get(url, { 'accept-encoding': ALL_ENCODINGS });
      expect(response.statusCode, url).toBe(404);
      expectSecurityHeaders(response.headers);
    }
  });

  it('HEAD describes the copy a GET would send, without a body', async () => {
    for (const url of ['/assets/x-abc123.js', '/', '/dashboard/student']) {
      const got = await get(url, { 'accept-encoding': ALL_ENCODINGS });
      const head = await get(url, { 'accept-encoding': ALL_ENCODINGS }, 'HEAD');
      expect(head.statusCode, url).toBe(200);
      expect(head.rawPayload.length).toBe(0);
      for (const header of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) {
        expect(head.headers[header], `${url} ${header}`).toBe(got.headers[header]);
      }
    }
  });

  it('a range is a range of the copy sent (what the Content-Encoding names)', async () => {
    const identity = await get('/assets/x-abc123.js', { range: 'bytes=0-9' });
    expect(identity.statusCode).toBe(206);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers['content-range']).toBe(`bytes 0-9/${Buffer.byteLength(SCRIPT)}`);
    expect(identity.body).toBe(SCRIPT.slice(0, 10));

    const brotli = await get('/assets/x-abc123.js', { range: 'bytes=0-9', 'accept-encoding': 'br' });
    const whole = await get('/assets/x-abc123.js', { 'accept-encoding': 'br' });
    expect(brotli.statusCode).toBe(206);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-range']).toBe(`bytes 0-9/${whole.rawPayload.length}`);
    expect(brotli.rawPayload).toEqual(whole.rawPayload.subarray(0, 10));
  });

  it('each copy has its own validator: a revalidation answers 304 only for the same copy', async () => {
    const brotli = await get('/assets/x-abc123.js', { 'accept-encoding': 'br' });
    const gzip = await get('/assets/x-abc123.js', { 'accept-encoding': 'gzip' });
    expect(brotli.headers.etag).toBeTruthy();
    expect(brotli.headers.etag).not.toBe(gzip.headers.etag);
    const etag = String(brotli.headers.etag);
    const same = await get('/assets/x-abc123.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(same.statusCode).toBe(304);
    const other = await get('/assets/x-abc123.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it.each([
    ['English when the browser asks for nothing', {}, 'en', 'ltr'],
    ['the best of Accept-Language that ships', { 'accept-language': 'fr-FR, es-MX;q=0.9, en;q=0.8' }, 'es', 'ltr'],
    ['Arabic, right to left, from Accept-Language', { 'accept-language': 'ar-EG' }, 'ar', 'rtl'],
    ['Accept-Language by weight, not by order', { 'accept-language': 'en;q=0.5, ar;q=0.9' }, 'ar', 'rtl'],
    ['English when no language of the browser ships', { 'accept-language': 'fr, de;q=0.8' }, 'en', 'ltr'],
    [
      'the cookie’s choice over Accept-Language',
      { cookie: 'a=1; studyhall_locale=ar', 'accept-language': 'es' },
      'ar',
      'rtl',
    ],
    [
      'Accept-Language when the cookie names no shipped locale',
      { cookie: 'studyhall_locale=xx', 'accept-language': 'es' },
      'es',
      'ltr',
    ],
    [
      'Accept-Language when the cookie is not even readable (a malformed escape)',
      { cookie: 'studyhall_locale=%E0%A4%A', 'accept-language': 'es' },
      'es',
      'ltr',
    ],
  ])(
    'the SPA shell and the landing page in the visitor’s language: %s (decision 054, issue 32)',
    async (_label, headers, lang, dir) => {
      for (const [url, pageIn] of [
        ['/auth/student/login', shellIn],
        ['/', landingIn],
      ] as const) {
        for (const acceptEncoding of [ALL_ENCODINGS, '']) {
          const response = await get(url, { ...headers, 'accept-encoding': acceptEncoding });
          expect(response.statusCode).toBe(200);
          expect(decodedBody(response), url).toBe(pageIn(lang, dir));
          expect(response.headers.vary).toBe('Accept-Encoding, Accept-Language, Cookie');
          expect(response.headers['cache-control']).toBe('no-cache');
          expectSecurityHeaders(response.headers);
        }
      }
    },
  );

  it.each([
    ['Spanish, whatever the cookie and Accept-Language say', '/?lang=es', 'es', 'ltr'],
    ['Arabic, right to left', '/?lang=ar', 'ar', 'rtl'],
    ['English, over an Arabic cookie', '/?lang=en', 'en', 'ltr'],
    ['by the cookie when ?lang names no shipped locale', '/?lang=xx', 'ar', 'rtl'],
  ])('the landing page at its address per language (hreflang, language links): %s', async (_label, url, lang, dir) => {
    const response = await get(url, {
      cookie: 'studyhall_locale=ar',
      'accept-language': 'ar',
      'accept-encoding': ALL_ENCODINGS,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(decodedBody(response)).toBe(landingIn(lang, dir));
    expect(response.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(response.headers);
  });
});

describe('a build with the landing page in English only (an older build)', () => {
  let t: TestApp;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'studyhall-client-'));
    await writeFile(path.join(clientDir, 'index.html'), SPA_SHELL);
    await writeFile(path.join(clientDir, 'landing.html'), LANDING_PAGE);
    t = await createTestApp({ clientDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('sends the English page to every visitor rather than a missing file', async () => {
    for (const [url, headers] of [
      ['/', { 'accept-language': 'ar' }],
      ['/', { cookie: 'studyhall_locale=es' }],
      ['/?lang=ar', {}],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(LANDING_PAGE);
    }
  });
});

describe('the school’s default language on the pages the server sends (decision 055 addendum)', () => {
  let t: TestApp;
  let clientDir: string;
  let administratorToken: string;
  const pageLang = async (url: string, headers: Record<string, string>) => {
    const response = await t.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, url).toBe(200);
    return /<html lang="([^"]+)" dir="([^"]+)"/.exec(response.body)?.slice(1, 3).join(' ');
  };
  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'studyhall-client-'));
    for (const [file, text] of Object.entries(FILES)) {
      await mkdir(path.dirname(path.join(clientDir, file)), { recursive: true });
      await writeFile(path.join(clientDir, file), text);
    }
    t = await createTestApp({ clientDir });
    const setup = buildSchoolSetup({ defaultLocale: 'ar' });
    expect((await t.call({ method: 'POST', url: '/api/school/setup', payload: setup })).status).toBe(201);
    const login = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: setup.email, password: setup.password },
    });
    administratorToken = login.body.data as string;
  });
  afterAll(async () => {
    await t.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it.each([
    ['the school’s when the browser asks for no language', {}, 'ar rtl'],
    ['the school’s when no language of the browser ships (fr-FR)', { 'accept-language': 'fr-FR, fr;q=0.9' }, 'ar rtl'],
    ['Accept-Language when one of its languages ships', { 'accept-language': 'fr-FR, es;q=0.8' }, 'es ltr'],
    ['the cookie’s choice over the school’s', { cookie: 'studyhall_locale=en', 'accept-language': 'fr' }, 'en ltr'],
  ])('%s', async (_label, headers, expected) => {
    for (const url of ['/auth/student/login', '/dashboard/student', '/']) {
      expect(await pageLang(url, headers), url).toBe(expected);
    }
  });

  it('follows a change on the Staff screen at once on this instance', async () => {
    expect(await pageLang('/auth/teacher/login', { 'accept-language': 'fr' })).toBe('ar rtl');
    const changed = await t.call({
      method: 'POST',
      url: '/api/school/language',
      headers: { authorization: `Bearer ${administratorToken}` },
      payload: { defaultLocale: 'es' },
    });
    expect(changed.status, changed.raw).toBe(200);
    expect(await pageLang('/auth/teacher/login', { 'accept-language': 'fr' })).toBe('es ltr');
    expect(await pageLang('/', {})).toBe('es ltr');
  });
});
