import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { patience } from '../../src/server/testing/patience.ts';

/** Meetings (issue 7): what a person does and sees, shared by the meeting scenarios. */

/**
 * From any dashboard screen: EMeet in the menu, type the room ID (a room of one's class,
 * decision 035), Join, then Join on the pre-join screen.
 */
export async function joinRoomFromEmeet(page: Page, roomId: string) {
  await page.getByRole('navigation').getByRole('link', { name: 'EMeet' }).click();
  await page.getByLabel('Room ID').fill(roomId);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Ready to join?' })).toBeVisible();
  await page.getByRole('button', { name: 'Join meeting' }).click();
}

/** The video in a participant's tile plays real frames from the other browser: a size, and time moving on. */
export async function expectVideoFlowing(tile: Locator) {
  const video = tile.locator('video');
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: patience(20_000) })
    .toBeGreaterThan(0);
  const firstTime = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime))
    .toBeGreaterThan(firstTime);
}
