import { t } from '@lingui/core/macro';

/**
 * The camera, microphone and screen of this browser: opening them, and saying in
 * words a person understands why one could not be opened.
 */

export type DeviceProblem = 'denied' | 'missing' | 'busy' | 'unsupported' | 'failed';

export type MediaDevice = 'camera' | 'microphone' | 'camera and microphone' | 'screen';

export class MediaDeviceError extends Error {
  constructor(
    readonly problem: DeviceProblem,
    readonly device: MediaDevice,
  ) {
    // For logs; a person reads deviceProblemText(error), in their language.
    super(`${device}: ${problem}`);
    this.name = 'MediaDeviceError';
  }
}

/**
 * What a person reads about a device that could not be opened, in the active locale (call it
 * when showing it). Whole sentences per device: other languages agree words with the device.
 */
export function deviceProblemText({ problem, device }: Pick<MediaDeviceError, 'problem' | 'device'>): string {
  if (device === 'screen') {
    switch (problem) {
      case 'denied':
        return t`Screen sharing was cancelled or blocked.`;
      case 'unsupported':
        return t`This browser cannot share the screen.`;
      case 'missing':
      case 'busy':
      case 'failed':
        return t`The screen could not be started.`;
    }
  }
  switch (problem) {
    case 'denied':
      return device === 'camera'
        ? t({
            comment:
              'The site settings icon is beside the address: left of it in a left-to-right browser, right of it in a right-to-left one',
            message:
              'Your browser blocked the camera. Allow it in the site settings (the icon left of the address), or join with it off.',
          })
        : device === 'microphone'
          ? t({
              comment:
                'The site settings icon is beside the address: left of it in a left-to-right browser, right of it in a right-to-left one',
              message:
                'Your browser blocked the microphone. Allow it in the site settings (the icon left of the address), or join with it off.',
            })
          : t({
              comment:
                'The site settings icon is beside the address: left of it in a left-to-right browser, right of it in a right-to-left one',
              message:
                'Your browser blocked the camera and microphone. Allow them in the site settings (the icon left of the address), or join with them off.',
            });
    case 'missing':
      return device === 'camera'
        ? t`No camera was found on this device. You can join with it off.`
        : device === 'microphone'
          ? t`No microphone was found on this device. You can join with it off.`
          : t`No camera and microphone were found on this device. You can join with them off.`;
    case 'busy':
      return device === 'camera'
        ? t`The camera is in use by another application. Close that application, or join with it off.`
        : device === 'microphone'
          ? t`The microphone is in use by another application. Close that application, or join with it off.`
          : t`The camera and microphone are in use by another application. Close that application, or join with them off.`;
    case 'unsupported':
      return device === 'camera'
        ? t`This browser cannot use the camera here (it needs a secure https address).`
        : device === 'microphone'
          ? t`This browser cannot use the microphone here (it needs a secure https address).`
          : t`This browser cannot use the camera and microphone here (it needs a secure https address).`;
    case 'failed':
      return device === 'camera'
        ? t`The camera could not be started.`
        : device === 'microphone'
          ? t`The microphone could not be started.`
          : t`The camera and microphone could not be started.`;
  }
}

/** A device action's failure in words: its problem, or that it could not be started. */
export function deviceFailureText(error: unknown): string {
  return error instanceof MediaDeviceError ? deviceProblemText(error) : t`That device could not be started.`;
}

/** getUserMedia's DOMException names, as the kind of problem to show. */
export function classifyMediaError(error: unknown): DeviceProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  if (name === 'NotReadableError' || name === 'AbortError') return 'busy';
  if (name === 'TypeError') return 'unsupported';
  return 'failed';
}

/**
 * The camera at a modest size: in a mesh every browser encodes its camera once per
 * other participant, so 640x360 at 24 fps keeps an 8-person room within a laptop's means.
 */
const CAMERA_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: 640 },
  height: { ideal: 360 },
  frameRate: { ideal: 24, max: 30 },
};
const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};

export type DeviceChoice = { cameraId?: string | undefined; microphoneId?: string | undefined };

/** Opens the camera and/or microphone; throws MediaDeviceError. */
export async function openDevices(
  wanted: { camera: boolean; microphone: boolean },
  choice: DeviceChoice = {},
): Promise<{ camera: MediaStreamTrack | null; microphone: MediaStreamTrack | null }> {
  if (!wanted.camera && !wanted.microphone) return { camera: null, microphone: null };
  const device = wanted.camera && wanted.microphone ? 'camera and microphone' : wanted.camera ? 'camera' : 'microphone';
  if (!navigator.mediaDevices?.getUserMedia) throw new MediaDeviceError('unsupported', device);
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      video: wanted.camera
        ? { ...CAMERA_CONSTRAINTS, ...(choice.cameraId ? { deviceId: { exact: choice.cameraId } } : {}) }
        : false,
      audio: wanted.microphone
        ? { ...MICROPHONE_CONSTRAINTS, ...(choice.microphoneId ? { deviceId: { exact: choice.microphoneId } } : {}) }
        : false,
    });
    return { camera: stream.getVideoTracks()[0] ?? null, microphone: stream.getAudioTracks()[0] ?? null };
  } catch (error) {
    throw new MediaDeviceError(classifyMediaError(error), device);
  }
}

/**
 * Opens what is wished for with one permission prompt; if that fails, each device
 * alone, so a missing camera still leaves the microphone (and says what failed).
 */
export async function openWanted(
  wanted: { camera: boolean; microphone: boolean },
  choice: DeviceChoice = {},
): Promise<{ camera: MediaStreamTrack | null; microphone: MediaStreamTrack | null; problem: MediaDeviceError | null }> {
  try {
    return { ...(await openDevices(wanted, choice)), problem: null };
  } catch (error) {
    const problem = error instanceof MediaDeviceError ? error : new MediaDeviceError('failed', 'camera and microphone');
    if (!(wanted.camera && wanted.microphone) || problem.problem === 'denied' || problem.problem === 'unsupported') {
      return { camera: null, microphone: null, problem };
    }
    const [camera, microphone] = await Promise.allSettled([
      openDevices({ camera: true, microphone: false }, choice),
      openDevices({ camera: false, microphone: true }, choice),
    ]);
    const firstProblem = [camera, microphone].find((result) => result.status === 'rejected')?.reason as unknown;
    return {
      camera: camera.status === 'fulfilled' ? camera.value.camera : null,
      microphone: microphone.status === 'fulfilled' ? microphone.value.microphone : null,
      problem: firstProblem instanceof MediaDeviceError ? firstProblem : problem,
    };
  }
}

/** Asks the person to pick a screen, window or tab; throws MediaDeviceError (also when they cancel). */
export async function openScreen(): Promise<MediaStreamTrack> {
  if (!navigator.mediaDevices?.getDisplayMedia) throw new MediaDeviceError('unsupported', 'screen');
  try {
    const stream = await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: { ideal: 15 } }, audio: false });
    const track = stream.getVideoTracks()[0];
    if (!track) throw new MediaDeviceError('failed', 'screen');
    // Text on a shared screen should stay sharp rather than move smoothly.
    track.contentHint = 'detail';
    return track;
  } catch (error) {
    if (error instanceof MediaDeviceError) throw error;
    throw new MediaDeviceError(classifyMediaError(error), 'screen');
  }
}

export type DeviceLists = { cameras: MediaDeviceInfo[]; microphones: MediaDeviceInfo[] };

/** The cameras and microphones to choose from (labels appear once the page may use them). */
export async function listDevices(): Promise<DeviceLists> {
  if (!navigator.mediaDevices?.enumerateDevices) return { cameras: [], microphones: [] };
  const devices = await navigator.mediaDevices.enumerateDevices();
  return {
    cameras: devices.filter((device) => device.kind === 'videoinput' && device.deviceId),
    microphones: devices.filter((device) => device.kind === 'audioinput' && device.deviceId),
  };
}
