// Page weight on the wire (decision 021): what a first visit to a page transfers, as Chromium's
// network stack counts it (CDP Network.loadingFinished encodedDataLength: headers and body as
// sent, so compressed when the server compressed), against the bytes the page decodes
// (Network.dataReceived dataLength). Each page opens in a fresh browser context (empty cache)
// and is measured once the network is idle. Runs the built app as `npm start` would, one
// instance on a fresh DATA_DIR; the student dashboard is opened as a newly registered student.
//
//   npm run bench:pages   (node --import tsx bench/page-transfer.mjs)   BENCH_PORT=3196 CHROMIUM_PATH=/usr/bin/chromium
import { chromium } from 'playwright-core';
import { benchAccounts, setUpBenchSchool, startBenchApp } from './bench-app.mjs';
import { CHROMIUM_ARGS } from '../tests/chromium-args.ts';

const VIEWPORT = { width: 1280, height: 800 };
const kB = (bytes) => (bytes / 1000).toFixed(1);

/** Opens `url` in a fresh context and adds up, per resource type, the bytes sent and decoded. */
async function measure(browser, baseUrl, url, session) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    storageState: session
      ? {
          cookies: [],
          origins: [
            {
              origin: baseUrl,
              localStorage: [
                { name: 'token', value: session.token },
                { name: 'userType', value: session.role },
              ],
            },
          ],
        }
      : undefined,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const requests = new Map();
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      requests.set(requestId, {
        type,
        url: response.url,
        encoding: response.headers['content-encoding'] ?? response.headers['Content-Encoding'] ?? '',
        decoded: 0,
        encoded: 0,
      });
    });
    cdp.on('Network.dataReceived', ({ requestId, dataLength }) => {
      const request = requests.get(requestId);
      if (request) request.decoded += dataLength;
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const request = requests.get(requestId);
      if (request) request.encoded = encodedDataLength;
    });
    await page.goto(`${baseUrl}${url}`, { waitUntil: 'networkidle' });
    const byType = new Map();
    for (const request of requests.values()) {
      const kind = request.url.includes('/api/') ? 'API' : request.type;
      const row = byType.get(kind) ?? { count: 0, encoded: 0, decoded: 0, encodings: new Set() };
      row.count += 1;
      row.encoded += request.encoded;
      row.decoded += request.decoded;
      row.encodings.add(request.encoding || 'identity');
      byType.set(kind, row);
    }
    return byType;
  } finally {
    await context.close();
  }
}

const app = await startBenchApp({ defaultPort: 3196 });
let browser;
try {
  const { teacher, student } = benchAccounts();
  await setUpBenchSchool(app.post, { teacher, student });
  const token = student.token;

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  console.log(`Page weight, first visit (empty cache), Chromium ${browser.version()} headless; kB = 1,000 bytes`);
  const pages = [
    ['/', undefined],
    ['/auth/teacher/login', undefined],
    ['/dashboard/student', { role: 'student', token }],
  ];
  for (const [url, session] of pages) {
    const byType = await measure(browser, app.baseUrl, url, session);
    let encoded = 0;
    let decoded = 0;
    console.log(`\n${url}`);
    for (const [kind, row] of [...byType].sort(([a], [b]) => a.localeCompare(b))) {
      encoded += row.encoded;
      decoded += row.decoded;
      console.log(
        `  ${kind.padEnd(12)} ${String(row.count).padStart(3)} files  ${kB(row.encoded).padStart(7)} kB sent  ` +
          `${kB(row.decoded).padStart(7)} kB decoded  (${[...row.encodings].join(', ')})`,
      );
    }
    console.log(`  ${'total'.padEnd(22)} ${kB(encoded).padStart(7)} kB sent  ${kB(decoded).padStart(7)} kB decoded`);
  }
} finally {
  await browser?.close();
  await app.stop();
}
