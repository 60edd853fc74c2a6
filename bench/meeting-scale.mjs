// Meetings of N people (issue 21): what each browser uploads, and what Janus spends per stream it
// forwards, in a mesh and through the SFU. Called by bench/meeting-join.mjs (`npm run
// bench:meeting`) for each size and topology, on the apps it started.
//
// For each N: a new room of the bench's class; the teacher and N - 1 students open the meet
// route one after the other, each in its own context of one Chromium (fake camera at 10 frames
// a second), and join. Once every page decodes the video it should (mesh: the N - 1 others, one
// connection each; SFU: the cameras on its gallery page, at most 8 on a 1280 × 800 screen), and a
// few seconds more for the senders' bandwidth estimates to settle, two getStats() snapshots of
// every page ~10 s apart give the rates; /proc gives the CPU of Janus, of the app, of Chromium and
// of the whole machine over the same window.
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/chromium-args.ts';
import { readRtpStreams } from '../tests/meeting-stats.ts';
import { GALLERY_PAGE_SIZE } from '../src/client/features/meetings/gallery.ts';
import { processStat } from './api/cpu.ts';
import { enterStudyMode, meetPath, newMeetingContext, waitForPreJoin } from './meeting-pages.mjs';

/** Small video for many browsers on two cores: the app's 640 × 360 camera, at 10 frames a second. */
const FAKE_CAMERA_FPS = 10;
const SCALE_BROWSER_ARGS = [
  ...CHROMIUM_ARGS,
  '--use-fake-ui-for-media-stream',
  `--use-fake-device-for-media-stream=fps=${FAKE_CAMERA_FPS}`,
];
/** A page loading or joining while the others' meetings keep both cores busy. */
const STEP_TIMEOUT_MS = 90_000;
/** Waiting for every page to decode what it should ends when no more streams decode for this long. */
const STALLED_MS = 30_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many cameras a page should be decoding: every other's in a mesh, the gallery page's through Janus. */
export const expectedVideoStreams = (topology, people) =>
  topology === 'mesh' ? people - 1 : Math.min(people - 1, GALLERY_PAGE_SIZE.wide);

// ---- CPU from /proc -------------------------------------------------------------------------

/** This process's descendants with their CPU so far (ms), each under the child of ours it descends from. */
function descendantsCpu() {
  const processes = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = processStat(Number(name));
    if (stat) processes.set(Number(name), stat);
  }
  const ownChildOf = (pid) => {
    for (let current = pid, depth = 0; depth < 64; depth += 1) {
      const parent = processes.get(current)?.parentPid;
      if (parent === undefined || parent <= 1) return undefined;
      if (parent === process.pid) return current;
      current = parent;
    }
    return undefined;
  };
  const byChild = new Map();
  for (const [pid, { cpuMs }] of processes) {
    const child = ownChildOf(pid);
    if (child !== undefined) byChild.set(child, (byChild.get(child) ?? 0) + cpuMs);
  }
  return byChild;
}

/** The whole machine: busy and total jiffies of all cores (/proc/stat's first line). */
function machineJiffies() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = fields[3] + fields[4]; // idle + iowait
  return { busy: total - idle, total };
}

/**
 * CPU between two samples, in % of one core: the app's process tree, Janus's, the rest of ours
 * (Chromium and its helpers), and the machine's busy share of all its cores (other users' too).
 * A helper process that exits inside the window takes its CPU with it; Chromium's stay for the run.
 */
function cpuSample({ appPid, janusPid }) {
  const children = descendantsCpu();
  let browserMs = 0;
  for (const [pid, ms] of children) if (pid !== appPid && pid !== janusPid) browserMs += ms;
  return {
    at: performance.now(),
    appMs: children.get(appPid) ?? 0,
    janusMs: janusPid === undefined ? undefined : (children.get(janusPid) ?? 0),
    browserMs,
    machine: machineJiffies(),
  };
}

function cpuBetween(before, after) {
  const elapsedMs = after.at - before.at;
  const percent = (ms) => Math.round((ms / elapsedMs) * 1000) / 10;
  return {
    seconds: Math.round(elapsedMs / 100) / 10,
    appPercent: percent(after.appMs - before.appMs),
    janusPercent: before.janusMs === undefined ? undefined : percent(after.janusMs - before.janusMs),
    browsersPercent: percent(after.browserMs - before.browserMs),
    machineBusyPercent:
      Math.round(((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * 1000) /
      10,
  };
}

// ---- one page's rates ------------------------------------------------------------------------

/** What one page sent and received between two snapshots of its RTP streams. */
function pageRates(before, after) {
  const seconds = (after.at - before.at) / 1000;
  const earlier = new Map(before.streams.map((stream) => [stream.key, stream]));
  const moved = after.streams.map((stream) => ({
    ...stream,
    bytes: stream.bytes - (earlier.get(stream.key)?.bytes ?? 0),
    packets: stream.packets - (earlier.get(stream.key)?.packets ?? 0),
    retransmittedBytes: stream.retransmittedBytes - (earlier.get(stream.key)?.retransmittedBytes ?? 0),
    keyFrames: stream.keyFrames - (earlier.get(stream.key)?.keyFrames ?? 0),
    pictureLossIndications: stream.pictureLossIndications - (earlier.get(stream.key)?.pictureLossIndications ?? 0),
    frames: stream.frames - (earlier.get(stream.key)?.frames ?? 0),
  }));
  const sum = (streams) => streams.reduce((total, stream) => total + stream.bytes, 0) / seconds;
  const outbound = moved.filter((stream) => stream.direction === 'outbound');
  const inbound = moved.filter((stream) => stream.direction === 'inbound');
  const videoIn = inbound.filter((stream) => stream.kind === 'video' && stream.frames > 0);
  return {
    seconds,
    uploadBytesPerSecond: sum(outbound),
    uploadVideoBytesPerSecond: sum(outbound.filter((stream) => stream.kind === 'video')),
    uploadRetransmittedBytesPerSecond:
      outbound.reduce((total, stream) => total + stream.retransmittedBytes, 0) / seconds,
    downloadBytesPerSecond: sum(inbound),
    downloadPacketsPerSecond: inbound.reduce((total, stream) => total + stream.packets, 0) / seconds,
    /** Outbound video streams that carried bytes: one per other person in a mesh, the simulcast layers with Janus. */
    sentVideo: outbound
      .filter((stream) => stream.kind === 'video' && stream.bytes > 0)
      .map((stream) => ({
        ...(stream.rid ? { rid: stream.rid } : {}),
        size: `${stream.frameWidth ?? '?'}x${stream.frameHeight ?? '?'}`,
        kBps: Math.round(stream.bytes / seconds / 100) / 10,
        retransmittedKBps: Math.round(stream.retransmittedBytes / seconds / 100) / 10,
        fps: Math.round((stream.frames / seconds) * 10) / 10,
        keyFrames: stream.keyFrames,
        pictureLossIndications: stream.pictureLossIndications,
        limitedBy: stream.qualityLimitationReason ?? 'unknown',
      })),
    receivedVideoStreams: videoIn.length,
    receivedVideoBytesPerSecond: sum(videoIn),
    receivedKeyFrames: videoIn.reduce((total, stream) => total + stream.keyFrames, 0),
    receivedVideoSizes: videoIn.map((stream) => `${stream.frameWidth ?? '?'}x${stream.frameHeight ?? '?'}`),
    receivedAudioStreams: inbound.filter((stream) => stream.kind === 'audio' && stream.bytes > 0).length,
    /** Frames decoded per second, averaged over the video streams that decoded any. */
    receivedFps:
      videoIn.length === 0 ? 0 : videoIn.reduce((total, stream) => total + stream.frames, 0) / seconds / videoIn.length,
  };
}

/** Video streams decoding a frame between two snapshots, per page. */
async function decodingVideoStreams(pages, previous) {
  const now = await Promise.all(pages.map((page) => readRtpStreams(page)));
  const counts = now.map((snapshot, index) => {
    if (!previous) return 0;
    const earlier = new Map(previous[index].streams.map((stream) => [stream.key, stream.frames]));
    return snapshot.streams.filter(
      (stream) =>
        stream.direction === 'inbound' && stream.kind === 'video' && stream.frames > (earlier.get(stream.key) ?? 0),
    ).length;
  });
  return { now, counts };
}

/**
 * Polls until every page decodes `expected` video streams; gives up at `timeoutMs`, or sooner when
 * the number of streams decoding has not grown for STALLED_MS (a saturated machine will not
 * get there). Answers whether it did and the last counts.
 */
async function waitForEveryoneSeeingEveryone(pages, expected, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let previous;
  let counts = [];
  let best = -1;
  let grewAt = Date.now();
  for (;;) {
    const polled = await decodingVideoStreams(pages, previous);
    if (previous) {
      counts = polled.counts;
      if (counts.every((count) => count >= expected)) return { isSettled: true, counts };
      const decoding = counts.reduce((total, count) => total + count, 0);
      if (decoding > best) [best, grewAt] = [decoding, Date.now()];
      if (Date.now() > deadline || Date.now() - grewAt > STALLED_MS) return { isSettled: false, counts };
    }
    previous = polled.now;
    // Not too often: reading 16 pages' statistics is work for a machine that is already busy.
    await sleep(pages.length > 8 ? 2000 : 1000);
  }
}

// ---- a room of N -----------------------------------------------------------------------------

/** A person opens the meet route and waits on the pre-join screen, camera on; answers their context and page. */
async function openPreJoin(browser, baseUrl, roomId, person) {
  const context = await newMeetingContext(browser, baseUrl, person, { isRecordingConnections: true });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await page.goto(`${baseUrl}${meetPath(person.role, roomId)}`, { timeout: STEP_TIMEOUT_MS });
    if (person.role === 'student') await enterStudyMode(page, { timeout: STEP_TIMEOUT_MS });
    await waitForPreJoin(page, { timeout: STEP_TIMEOUT_MS });
    return { context, page };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Pages opened this many at a time: loading them one by one would take most of a quick run. */
const OPENING_AT_ONCE = 4;

const countBy = (values) =>
  Object.fromEntries([...new Set(values)].map((value) => [value, values.filter((other) => other === value).length]));
const mean = (values) => (values.length === 0 ? 0 : values.reduce((total, value) => total + value, 0) / values.length);
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * One room of `people.length` (the first is the teacher, who joins with the microphone on;
 * students join muted, decision 038), measured over `windowMs`.
 */
async function measureRoom({ browser, app, janusPid, topology, roomId, people, timing, failures, log }) {
  const n = people.length;
  const expected = expectedVideoStreams(topology, n);
  const joined = [];
  const crashed = [];
  const startedAt = performance.now();
  try {
    for (let first = 0; first < n; first += OPENING_AT_ONCE) {
      const batch = people.slice(first, first + OPENING_AT_ONCE);
      const opened = await Promise.allSettled(batch.map((person) => openPreJoin(browser, app.baseUrl, roomId, person)));
      for (const [index, outcome] of opened.entries()) {
        if (outcome.status === 'fulfilled') {
          outcome.value.page.on('pageerror', (error) =>
            failures.push(`${topology} ${n}, ${batch[index].name}: page error: ${error.message}`),
          );
          // A saturated machine may lose a renderer: that is a figure of the room, not a bench failure.
          outcome.value.page.on('crash', () => crashed.push(batch[index].name));
          joined.push(outcome.value);
        }
      }
      const failed = opened.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    }
    // Then they join one after the other, as a class arrives.
    for (const { page } of joined) {
      await page.getByRole('button', { name: 'Join meeting' }).click();
      await page.getByRole('toolbar', { name: 'Meeting controls' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    }
    const joinedSeconds = round((performance.now() - startedAt) / 1000);
    const pages = joined.map((person) => person.page);
    const settled = await waitForEveryoneSeeingEveryone(pages, expected, timing.settleTimeoutMs);
    const settledSeconds = round((performance.now() - startedAt) / 1000);
    if (!settled.isSettled) {
      log(
        `  ${topology} ${n}: not every page decoded ${expected} cameras (waited ${round(settledSeconds - joinedSeconds)} s) ` +
          `(decoding: ${settled.counts.join(' ')}); measured as it is`,
      );
    }
    await sleep(timing.steadyMs);

    const pids = { appPid: app.pid, janusPid };
    const cpuBefore = cpuSample(pids);
    const before = await Promise.all(pages.map((page) => readRtpStreams(page)));
    await sleep(timing.windowMs);
    const cpuAfter = cpuSample(pids);
    const after = await Promise.all(pages.map((page) => readRtpStreams(page)));
    const rates = before.map((snapshot, index) => pageRates(snapshot, after[index]));
    const cpu = cpuBetween(cpuBefore, cpuAfter);

    const forwardedPacketsPerSecond = rates.reduce((total, page) => total + page.downloadPacketsPerSecond, 0);
    const forwardedVideo = rates.reduce((total, page) => total + page.receivedVideoStreams, 0);
    const forwardedAudio = rates.reduce((total, page) => total + page.receivedAudioStreams, 0);
    const kB = (bytesPerSecond) => round(bytesPerSecond / 1000);
    return {
      topology,
      people: n,
      expectedVideoStreamsPerPage: expected,
      isSettled: settled.isSettled,
      decodingAtSettle: settled.counts,
      joinedSeconds,
      settledSeconds,
      windowSeconds: round(mean(rates.map((page) => page.seconds))),
      uploadKBps: {
        mean: kB(mean(rates.map((page) => page.uploadBytesPerSecond))),
        min: kB(Math.min(...rates.map((page) => page.uploadBytesPerSecond))),
        max: kB(Math.max(...rates.map((page) => page.uploadBytesPerSecond))),
        teacher: kB(rates[0].uploadBytesPerSecond),
      },
      uploadVideoKBps: { mean: kB(mean(rates.map((page) => page.uploadVideoBytesPerSecond))) },
      /** Of the upload, bytes sent again: retransmissions and Chromium's bandwidth probes (RTX). */
      uploadRetransmittedKBps: { mean: kB(mean(rates.map((page) => page.uploadRetransmittedBytesPerSecond))) },
      downloadKBps: { mean: kB(mean(rates.map((page) => page.downloadBytesPerSecond))) },
      sentVideoStreamsPerPage: rates.map((page) => page.sentVideo.length),
      /** The teacher's outbound video streams: sizes, rates, frames a second, what limited them. */
      teacherSentVideo: rates[0].sentVideo,
      /** Every page's outbound video streams by what limited their quality (WebRTC's qualityLimitationReason). */
      sentVideoLimitedBy: countBy(rates.flatMap((page) => page.sentVideo.map((stream) => stream.limitedBy))),
      receivedVideoStreamsPerPage: rates.map((page) => page.receivedVideoStreams),
      receivedAudioStreamsPerPage: rates.map((page) => page.receivedAudioStreams),
      /** What one decoded camera brings in, on average, and the key frames among what all pages decoded. */
      receivedKBpsPerCamera: kB(
        rates.reduce((total, page) => total + page.receivedVideoBytesPerSecond, 0) /
          Math.max(
            1,
            rates.reduce((total, page) => total + page.receivedVideoStreams, 0),
          ),
      ),
      receivedKeyFrames: rates.reduce((total, page) => total + page.receivedKeyFrames, 0),
      /** Every page's decoded cameras by size: what a viewer sees. */
      receivedVideoSizes: countBy(rates.flatMap((page) => page.receivedVideoSizes)),
      /** Pages whose renderer crashed (Chromium out of means): they count as sending and receiving nothing. */
      crashedPages: crashed.length,
      receivedFps: round(mean(rates.filter((page) => page.receivedVideoStreams > 0).map((page) => page.receivedFps))),
      cpu,
      // Through Janus, every stream a page receives is one Janus forwards (its subscriber
      // connection is the only one that receives).
      ...(topology === 'sfu'
        ? {
            forwardedStreams: { video: forwardedVideo, audio: forwardedAudio, total: forwardedVideo + forwardedAudio },
            forwardedPacketsPerSecond: Math.round(forwardedPacketsPerSecond),
            // CPU time per packet Janus sent on: steadier than per stream when a saturated
            // machine thins the streams out (receiving the published layers is in it too).
            janusMicrosecondsPerForwardedPacket:
              forwardedPacketsPerSecond === 0
                ? null
                : Math.round((cpu.janusPercent / 100 / forwardedPacketsPerSecond) * 1e6),
            janusPercentPerForwardedStream:
              forwardedVideo + forwardedAudio === 0
                ? null
                : round(cpu.janusPercent / (forwardedVideo + forwardedAudio), 2),
          }
        : {}),
    };
  } finally {
    await Promise.all(joined.map((person) => person.context.close()));
  }
}

/** The Chromium the rooms run in: one context per person. */
export function launchScaleBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: SCALE_BROWSER_ARGS,
  });
}

/**
 * A room of `n` people on `app` (its class, its teacher and the first n - 1 `students`), in a
 * new room; answers the figures, or undefined when the room failed (logged in `failures`).
 */
export async function measureRoomOf(
  n,
  { browser, app, janusPid, topology, classId, teacher, students, timing, failures, log },
) {
  const { roomId } = await app.post('/api/meetings', { classId }, teacher.token);
  const people = [
    { ...teacher, role: 'teacher' },
    ...students.slice(0, n - 1).map((student) => ({ ...student, role: 'student' })),
  ];
  try {
    const result = await measureRoom({ browser, app, janusPid, topology, roomId, people, timing, failures, log });
    log(
      `  ${topology.padEnd(4)} ${String(n).padStart(2)} people: upload ${result.uploadKBps.mean} kB/s per browser ` +
        `(video ${result.uploadVideoKBps.mean}, sent again ${result.uploadRetransmittedKBps.mean}), ${result.receivedFps} fps received ` +
        `(${Object.keys(result.receivedVideoSizes).join(', ') || 'nothing'}), machine ${result.cpu.machineBusyPercent}% busy` +
        (result.crashedPages > 0 ? `, ${result.crashedPages} pages crashed` : '') +
        (result.forwardedStreams
          ? `, Janus ${result.cpu.janusPercent}% for ${result.forwardedStreams.total} forwarded streams`
          : ''),
    );
    return result;
  } catch (error) {
    failures.push(`${topology} ${n} people: ${error instanceof Error ? error.message : String(error)}`);
    log(`  ${topology} ${n} people: FAILED`);
    return undefined;
  }
}

export { FAKE_CAMERA_FPS };
