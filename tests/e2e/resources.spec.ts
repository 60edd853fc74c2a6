import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { formatSizeInKb, formatStorageSize } from '../../src/shared/resources.ts';
import { logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectToast } from './toasts.ts';
import { patience } from '../../src/server/testing/patience.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
const PDF_PATH = 'tests/e2e/fixtures/fractions-worksheet.pdf';
const VIDEO_PATH = 'tests/e2e/fixtures/lesson-clip.mp4';
const PDF_NAME = 'fractions-worksheet.pdf';
const VIDEO_NAME = 'lesson-clip.mp4';
const IMAGE_PATH = 'tests/e2e/fixtures/checkerboard.png';
const IMAGE_NAME = 'checkerboard.png';
const LINK_TITLE = 'The Silk Road in ten minutes';
const LINK_URL = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
/** The e2e server runs with the default UPLOAD_MAX_BYTES. */
const LIMIT_HINT = 'Documents, images, audio or video, up to 100 MB.';
/** The player page the link plays in (youtube-nocookie: YouTube's privacy-enhanced embeds). */
const EMBED_URL = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
/** Anything of YouTube's: only the embed page may be asked for. */
const PROVIDERS = /^https:\/\/([\w-]+\.)*(youtube|youtube-nocookie|ytimg|googlevideo)\.com\//;

/** A class of this run only: both projects share one server. */
const newClassName = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;

/**
 * The worksheet made big enough (about 600 KB of trailing PDF comment) for
 * a throttled upload to report progress several times on the way to 100 %.
 */
const paddedWorksheet = () => ({
  name: PDF_NAME,
  mimeType: 'application/pdf',
  buffer: Buffer.concat([readFileSync(PDF_PATH), Buffer.from(`%${' '.repeat(600 * 1024)}\n`)]),
});

/** Slows this page's uploads (Chromium's network emulation), or lifts the limit with -1. */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/** Records every state the upload progress bar shows: [aria-valuenow, visible text]. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: [string, string][] = [];
    (window as unknown as { progressSeen: [string, string][] }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      if (!bar) return;
      const value = bar.getAttribute('aria-valuenow') ?? '';
      const text = document.getElementById(bar.getAttribute('aria-labelledby') ?? '')?.textContent ?? '';
      const last = seen.at(-1);
      if (!last || last[0] !== value || last[1] !== text) seen.push([value, text]);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return {
    /** Every value seen since the last take, and forget them. */
    take: () =>
      page.evaluate(() => {
        const seen = (window as unknown as { progressSeen: [string, string][] }).progressSeen;
        return seen.splice(0, seen.length);
      }),
  };
}

/** One resource of a list, by the name its link shows. */
const resourceItem = (list: Locator, name: string) =>
  list
    .getByRole('listitem')
    .filter({ has: list.page().getByRole('link', { name: new RegExp(`^${name.replaceAll('.', '\\.')}`) }) });

async function expectNoSideScroll(page: Page, label: string) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0], `horizontal scroll on ${label}`).toBeLessThanOrEqual(widths[1]!);
}

test('teacher uploads a PDF and a video with progress; a student of the class filters, stars and plays it', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(patience(120_000));
  const isDesktop = testInfo.project.name === 'desktop';
  const className = newClassName('8C');
  // The teacher's class (made through the API), which the student joins with its code.
  const { teacher, klass } = await teacherWithClass(request, className, 'Physics');
  const student = await registeredStudent(request, { classCode: klass.joinCode });

  // --- Teacher: an empty library ---------------------------------------------------------
  await logInTeacherThroughUi(page, teacher);
  const menuLink = page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Resources' });
  if (isDesktop) await menuLink.click();
  else await menuLink.tap();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/resources$/);
  // A tap is not a hover: no menu tooltip is left over the page (a touch has no "leave").
  if (!isDesktop) await expect(page.getByRole('tooltip', { name: 'Resources' })).toHaveAttribute('data-open', 'false');
  await expect(page.getByRole('heading', { level: 1, name: 'Resources' })).toBeVisible();
  const form = page.getByRole('region', { name: 'Upload Resource' });
  const uploaded = page.getByRole('region', { name: 'Uploaded Files' });
  await expect(uploaded.getByText('No resources shared')).toBeVisible();
  // The subject starts as the teacher's own; the storage space is all free (default 5 GB).
  await expect(form.getByLabel('Subject')).toHaveValue('Physics');
  await expect(form.getByText(/ used$/)).toHaveText('Storage: 0 bytes of 5 GB used');
  await expectAccessible(page, 'teacher resources, empty');
  await expectNoSideScroll(page, 'teacher resources, empty');

  // Nothing chosen: the form says so next to the file field and puts the focus there.
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  const fileInput = form.getByLabel('File');
  await expect(form.getByText('Please select a file.', { exact: true })).toBeVisible();
  await expect(fileInput).toBeFocused();
  await expect(fileInput).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('Choose one of your classes')).toBeVisible();
  await expectAccessible(page, 'upload form with errors');

  // --- The PDF, on a slow connection: the bar climbs to 100 % -----------------------------
  const progress = await recordProgress(page);
  await throttleUploads(page, 256 * 1024);
  await fileInput.setInputFiles(paddedWorksheet());
  await expect(form.getByText('Please select a file.')).toHaveCount(0);
  await form.getByLabel('Class').selectOption({ label: className });
  await form.getByLabel('Description (optional)').fill('Adding fractions with unlike denominators');
  await form.getByLabel('Tags (optional)').fill('fractions, homework');
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  const bar = form.getByRole('progressbar');
  await expect(bar).toBeVisible();
  await expect(form.getByRole('button', { name: 'Cancel upload' })).toBeVisible();
  await expectToast(page, 'Resource uploaded', { timeout: patience(20_000) });
  const pdfSteps = await progress.take();
  const pdfValues = pdfSteps.map(([value]) => Number(value));
  expect(pdfSteps.at(-1), JSON.stringify(pdfSteps)).toEqual(['100', 'Uploading: 100%']);
  expect(pdfSteps.every(([value, text]) => text === `Uploading: ${value}%`)).toBe(true);
  // Real progress: values between the ends, never going back.
  expect(
    pdfValues.some((value) => value > 0 && value < 100),
    JSON.stringify(pdfValues),
  ).toBe(true);
  expect(pdfValues).toEqual([...pdfValues].sort((a, b) => a - b));
  await throttleUploads(page, -1);

  // The form starts again (file, description, tags, progress); class and subject stay.
  await expect(bar).toHaveCount(0);
  await expect(fileInput).toHaveValue('');
  await expect(form.getByLabel('Description (optional)')).toHaveValue('');
  await expect(form.getByLabel('Tags (optional)')).toHaveValue('');
  await expect(form.getByLabel('Class')).toHaveValue(klass.id);
  const pdfItem = resourceItem(uploaded, PDF_NAME);
  await expect(pdfItem).toBeVisible();
  await expect(pdfItem).toContainText('Adding fractions with unlike denominators');
  await expect(pdfItem).toContainText('Tags: fractions, homework');
  await expect(pdfItem).toContainText(`Class: ${className}`);
  await expect(pdfItem).toContainText('Subject: Physics');
  await expect(pdfItem).toContainText('Type: application/pdf');

  // --- The video: small and fast, the bar still reaches 100 % ------------------------------
  await fileInput.setInputFiles(VIDEO_PATH);
  await form.getByLabel('Description (optional)').fill('Watch before Friday');
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expectToast(page, 'Resource uploaded');
  await expect(bar).toHaveCount(0);
  const videoSteps = await progress.take();
  expect(videoSteps.at(-1), JSON.stringify(videoSteps)).toEqual(['100', 'Uploading: 100%']);

  // Newest first; each name opens the file in a new tab and says so.
  const videoItem = resourceItem(uploaded, VIDEO_NAME);
  await expect(uploaded.getByRole('listitem')).toHaveCount(2);
  await expect(uploaded.getByRole('listitem').first()).toContainText(VIDEO_NAME);
  await expect(videoItem).toContainText(`Size: ${formatSizeInKb(statSync(VIDEO_PATH).size)}`);
  const pdfLink = pdfItem.getByRole('link', { name: `${PDF_NAME} (opens in a new tab)` });
  await expect(pdfLink).toHaveAttribute('target', '_blank');
  await expect(pdfLink).toHaveAttribute('rel', 'noopener noreferrer');
  const served = await request.get((await pdfLink.getAttribute('href'))!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('application/pdf');
  await expect(page.getByText('2 resources shown')).toBeVisible();
  // The space the two files take, as the server counts it, fetched again after each upload.
  const usedBytes = paddedWorksheet().buffer.length + statSync(VIDEO_PATH).size;
  await expect(form.getByText(/ used$/)).toHaveText(`Storage: ${formatStorageSize(usedBytes)} of 5 GB used`);
  await expectAccessible(page, 'teacher resources, two uploads');
  await expectNoSideScroll(page, 'teacher resources, two uploads');
  if (isDesktop) await page.screenshot({ path: `${SCREENSHOT_DIR}/resources-teacher.png`, fullPage: true });

  // Edit by keyboard in a dialog; the focus comes back to the Edit button.
  const editButton = pdfItem.getByRole('button', { name: `Edit ${PDF_NAME}` });
  await editButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Edit ${PDF_NAME}` });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await expect(dialog.getByLabel('Tags (optional)')).toHaveValue('fractions, homework');
  await expectAccessible(page, 'edit resource dialog');
  await dialog.getByLabel('Tags (optional)').fill('fractions, homework, week 3');
  await dialog.getByLabel('Tags (optional)').press('Enter');
  await expectToast(page, 'Resource updated');
  await expect(dialog).toHaveCount(0);
  await expect(editButton).toBeFocused();
  await expect(pdfItem).toContainText('Tags: fractions, homework, week 3');

  // --- Student of the class ----------------------------------------------------------------
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await logInStudentThroughUi(page, student);
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Resources' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/resources$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Resources' })).toBeVisible();
  const main = page.getByRole('main');
  await expect(page.getByText('2 resources shown')).toBeVisible();
  const studentPdf = resourceItem(main, PDF_NAME);
  const studentVideo = resourceItem(main, VIDEO_NAME);
  await expect(studentPdf).toContainText('application/pdf');
  await expect(studentPdf).toContainText('Tags: fractions, homework, week 3');
  await expect(studentVideo).toContainText('video/mp4');
  await expect(studentVideo).toContainText(formatSizeInKb(statSync(VIDEO_PATH).size));
  await expectAccessible(page, 'student resources');
  await expectNoSideScroll(page, 'student resources');

  // Videos only (on a phone the filters other than the search wait behind "Filters").
  const filtersToggle = page.getByRole('button', { name: 'Filters', exact: true });
  if (await filtersToggle.isVisible()) await filtersToggle.click();
  await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'Videos' });
  await expect.poll(() => new URL(page.url()).searchParams.get('type')).toBe('video');
  await expect(page.getByText('1 resource shown')).toBeVisible();
  await expect(studentVideo).toBeVisible();
  await expect(studentPdf).toHaveCount(0);

  // Star the video: the button turns into Unstar and says it is pressed.
  await studentVideo.getByRole('button', { name: `Star ${VIDEO_NAME}`, exact: true }).click();
  const unstar = studentVideo.getByRole('button', { name: `Unstar ${VIDEO_NAME}`, exact: true });
  await expect(unstar).toHaveAttribute('aria-pressed', 'true');
  await expect(studentPdf).toHaveCount(0);

  // All types again, then Starred: only the starred video.
  await page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'All types' });
  await expect(page.getByText('2 resources shown')).toBeVisible();
  await expect(studentPdf.getByRole('button', { name: `Star ${PDF_NAME}`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await page.getByRole('button', { name: 'Starred', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Starred', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('starred');
  await expect(page.getByText('1 resource shown')).toBeVisible();
  await expect(studentVideo).toBeVisible();
  await expect(studentPdf).toHaveCount(0);
  await expectAccessible(page, 'student resources, starred');

  // Nothing matches a search: the empty state with its hint.
  await page.getByRole('searchbox', { name: 'Search' }).fill('no such resource %_');
  await expect(main.getByText('No resources found')).toBeVisible();
  await expect(main.getByText('Try adjusting your filters or search.')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await expect(page.getByText('2 resources shown')).toBeVisible();

  // Play opens the player inline and the video really plays.
  await studentVideo.getByRole('button', { name: `Play ${VIDEO_NAME}` }).click();
  const video = studentVideo.locator('video');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBeGreaterThan(0);
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0.2);
  await expect(studentVideo.getByRole('button', { name: `Close player ${VIDEO_NAME}` })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expectAccessible(page, 'student resources, playing');
  await expectNoSideScroll(page, 'student resources, playing');
  if (isDesktop) await page.screenshot({ path: `${SCREENSHOT_DIR}/resources-student.png`, fullPage: true });
});

test('teacher is refused a disguised program, cancels a slow upload, shares and deletes a video link, previews an image', async ({
  page,
  request,
  pageErrors,
}) => {
  pageErrors.allow(/status of 415/); // the browser logs the refused upload
  const className = newClassName('9L');
  const { teacher } = await teacherWithClass(request, className, 'History');
  await logInTeacherThroughUi(page, teacher);
  const limitsAnswer = page.waitForResponse((response) => response.url().endsWith('/api/teacher/upload-limits'));
  await page.goto('/dashboard/teacher/resources');
  const form = page.getByRole('region', { name: 'Upload Resource' });
  const uploaded = page.getByRole('region', { name: 'Uploaded Files' });
  await expect(uploaded.getByText('No resources shared')).toBeVisible();

  // The size in the hint is the server's limit.
  const limits = await limitsAnswer;
  expect(limits.status()).toBe(200);
  expect(await limits.json()).toMatchObject({ success: true, data: { uploadMaxBytes: 100 * 1024 * 1024 } });
  const fileInput = form.getByLabel('File');
  await expect(form.getByText(LIMIT_HINT)).toBeVisible();
  await expect(fileInput).toHaveAccessibleDescription(LIMIT_HINT);

  // A Windows program renamed to .pdf is refused (415): a toast, and the reason under the
  // file field, tied to it, with the focus there.
  await fileInput.setInputFiles({
    name: 'homework.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4094)]),
  });
  await form.getByLabel('Class').selectOption({ label: className });
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  const typeRefused = /^This type of file cannot be shared/;
  await expectToast(page, typeRefused);
  await expect(form.getByText(typeRefused)).toBeVisible();
  await expect(fileInput).toHaveAttribute('aria-invalid', 'true');
  await expect(fileInput).toHaveAccessibleDescription(typeRefused);
  await expect(fileInput).toBeFocused();
  await expectAccessible(page, 'upload refused: type not allowed');
  // Another file clears it.
  await fileInput.setInputFiles(PDF_PATH);
  await expect(form.getByText(typeRefused)).toHaveCount(0);
  await expect(fileInput).not.toHaveAttribute('aria-invalid');
  await expect(fileInput).toHaveAccessibleDescription(LIMIT_HINT);

  // Cancel stops the upload; the form keeps what was typed and nothing is listed.
  await throttleUploads(page, 64 * 1024);
  await fileInput.setInputFiles(paddedWorksheet());
  await form.getByLabel('Class').selectOption({ label: className });
  await form.getByLabel('Description (optional)').fill('Kept after a cancel');
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(form.getByRole('progressbar')).toBeVisible();
  await form.getByRole('button', { name: 'Cancel upload' }).click();
  await expectToast(page, 'Upload cancelled.');
  await expect(form.getByRole('progressbar')).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Upload', exact: true })).toBeFocused();
  await expect(form.getByLabel('Description (optional)')).toHaveValue('Kept after a cancel');
  await throttleUploads(page, -1);
  await page.reload();
  await expect(uploaded.getByText('No resources shared')).toBeVisible();

  // A hosted video shared by its link.
  await page.getByRole('heading', { name: 'Share a video link' }).click(); // the disclosure's summary
  const linkForm = page.getByRole('region', { name: 'Share a video link' });
  await linkForm.getByLabel('Video link').fill('http://example.com/clip');
  await linkForm.getByLabel('Title').fill(LINK_TITLE);
  await linkForm.getByLabel('Class').selectOption({ label: className });
  await linkForm.getByRole('button', { name: 'Share link' }).click();
  await expect(linkForm.getByText(/Link must be an https address of YouTube, Vimeo, Wistia/)).toBeVisible();
  await expect(linkForm.getByLabel('Video link')).toBeFocused();
  await linkForm.getByLabel('Video link').fill(LINK_URL);
  await linkForm.getByRole('button', { name: 'Share link' }).click();
  await expectToast(page, 'Video link shared');
  const linkItem = resourceItem(uploaded, LINK_TITLE);
  await expect(linkItem).toContainText('YouTube video link');
  await expect(linkItem).toContainText('Subject: History');
  await expect(linkItem.getByRole('link', { name: new RegExp(`^${LINK_TITLE}`) })).toHaveAttribute('href', LINK_URL);
  await expectAccessible(page, 'teacher resources with a video link');

  // The video plays in YouTube's own (privacy-enhanced) embed page, in a frame: no YouTube
  // script ever loads into our page (a stand-in answers for the player page; nothing else may be asked).
  const providerRequests: string[] = [];
  await page.route(PROVIDERS, (route) => {
    providerRequests.push(route.request().url());
    return route.request().url().startsWith(EMBED_URL)
      ? route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><title>Stand-in player</title><p>Stand-in player</p>',
        })
      : route.abort('blockedbyclient');
  });
  await linkItem.getByRole('button', { name: `Play ${LINK_TITLE}` }).click();
  const frame = linkItem.locator('iframe');
  await expect(frame).toHaveAttribute('src', `${EMBED_URL}?autoplay=1&rel=0`);
  await expect(frame).toHaveAttribute('title', `Video: ${LINK_TITLE}`);
  await expect(frame).toHaveAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
  await expect(linkItem.frameLocator('iframe').getByText('Stand-in player')).toBeVisible();
  // A frame cannot say it failed (offline, video removed): the way out is always there.
  await expect(linkItem.getByRole('link', { name: 'Open the video on YouTube (opens in a new tab)' })).toHaveAttribute(
    'href',
    LINK_URL,
  );
  expect(providerRequests).toEqual([`${EMBED_URL}?autoplay=1&rel=0`]);
  await expectAccessible(page, 'hosted player');
  await linkItem.getByRole('button', { name: `Close player ${LINK_TITLE}` }).click();
  await expect(linkItem.locator('iframe')).toHaveCount(0);
  await page.unroute(PROVIDERS);

  // Delete asks first; Cancel keeps it, Delete removes it.
  await linkItem.getByRole('button', { name: `Delete ${LINK_TITLE}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this resource?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'delete confirmation');
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(linkItem.getByRole('button', { name: `Delete ${LINK_TITLE}` })).toBeFocused();
  await linkItem.getByRole('button', { name: `Delete ${LINK_TITLE}` }).click();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expectToast(page, 'Resource deleted');
  await expect(uploaded.getByText('No resources shared')).toBeVisible();
  await expect(uploaded.getByRole('heading', { name: 'Uploaded Files' })).toBeFocused();

  // An image previews inline (lazily) and opens larger in a dialog.
  await fileInput.setInputFiles(IMAGE_PATH);
  await form.getByLabel('Class').selectOption({ label: className }); // the page was reloaded since
  await form.getByRole('button', { name: 'Upload', exact: true }).click();
  await expectToast(page, 'Resource uploaded');
  const imageItem = resourceItem(uploaded, IMAGE_NAME);
  const preview = imageItem.getByRole('img', { name: `Preview of ${IMAGE_NAME}` });
  await expect(preview).toHaveAttribute('loading', 'lazy');
  await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
  await imageItem.getByRole('button', { name: `View larger ${IMAGE_NAME}` }).click();
  const large = page.getByRole('dialog', { name: IMAGE_NAME });
  const largeImage = large.getByRole('img', { name: IMAGE_NAME });
  await expect(largeImage).toBeVisible();
  // Shown at its natural size at most: a 48 px picture is not blown up to the dialog's width.
  await expect.poll(() => largeImage.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
  const shownWidth = await largeImage.evaluate((image: HTMLImageElement) => image.getBoundingClientRect().width);
  expect(shownWidth).toBeGreaterThan(0);
  expect(shownWidth).toBeLessThanOrEqual(48);
  await expectAccessible(page, 'image dialog');
  await large.getByRole('button', { name: 'Close' }).click();
  await expect(large).toHaveCount(0);
  await expect(imageItem.getByRole('button', { name: `View larger ${IMAGE_NAME}` })).toBeFocused();
});
