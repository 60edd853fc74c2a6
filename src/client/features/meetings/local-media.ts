/**
 * The camera, microphone and screen of this browser: opening them, and saying in
 * words a person understands why one could not be opened.
 */

export type DeviceProblem = 'denied' | 'missing' | 'busy' | 'unsupported' | 'failed';

export class MediaDeviceError extends Error {
  constructor(
    readonly problem: DeviceProblem,
    readonly device: 'camera' | 'microphone' | 'camera and microphone' | 'screen',
  ) {
    super(deviceProblemMessage(problem, device));
    this.name = 'MediaDeviceError';
  }
}

function deviceProblemMessage(problem: DeviceProblem, device: string): string {
  const isPlural = device.includes(' and ');
  const it = isPlural ? 'them' : 'it';
  switch (problem) {
    case 'denied':
      return device === 'screen'
        ? 'Screen sharing was cancelled or blocked.'
        : `Your browser blocked the ${device}. Allow ${it} in the site settings (the icon left of the address), or join with ${it} off.`;
    case 'missing':
      return `No ${device} ${isPlural ? 'were' : 'was'} found on this device. You can join with ${it} off.`;
    case 'busy':
      return `The ${device} ${isPlural ? 'are' : 'is'} in use by another application. Close that application, or join with ${it} off.`;
    case 'unsupported':
      return device === 'screen'
        ? 'This browser cannot share the screen.'
        : `This browser cannot use the ${device} here (it needs a secure https address).`;
    case 'failed':
      return `The ${device} could not be started.`;
  }
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
