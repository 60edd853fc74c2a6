import { Trans, useLingui } from '@lingui/react/macro';
import { AlertTriangle, Mic, MicOff, Video, VideoOff } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { wholeToken } from '../../lib/whole-token.ts';
import {
  deviceProblemText,
  listDevices,
  openWanted,
  type DeviceChoice,
  type DeviceLists,
  type MediaDeviceError,
} from './local-media.ts';
import { VideoSurface } from './video-surface.tsx';

export type JoinChoice = { camera: MediaStreamTrack | null; microphone: MediaStreamTrack | null };

type Wish = { camera: boolean; microphone: boolean };
type OpenRequest = { wish: Wish; choice: DeviceChoice };
type Opened = {
  request: OpenRequest;
  camera: MediaStreamTrack | null;
  microphone: MediaStreamTrack | null;
  problem: MediaDeviceError | null;
};

/**
 * Before joining: see oneself, choose camera and microphone (on or off, and which
 * device), then join. A blocked or missing device says so, and the person can
 * join with it off. The tracks opened here go on into the meeting.
 */
export function PreJoin({
  roomId,
  initialWish,
  startsMuted = false,
  onJoin,
}: {
  roomId: string;
  initialWish: Wish;
  /** A student in a class room joins muted (decision 038), whatever the link asked. */
  startsMuted?: boolean;
  onJoin(choice: JoinChoice): void;
}) {
  // What to open; every toggle or device choice is a new request, answered by `opened`.
  const [request, setRequest] = useState<OpenRequest>(() => ({
    wish: startsMuted ? { ...initialWish, microphone: false } : initialWish,
    choice: {},
  }));
  const [opened, setOpened] = useState<Opened | null>(null);
  const [devices, setDevices] = useState<DeviceLists>({ cameras: [], microphones: [] });
  const handedOver = useRef(false);
  const headingId = useId();
  const { t } = useLingui();

  // One permission prompt for both; each device alone if that fails (see openWanted).
  useEffect(() => {
    let isCancelled = false;
    const tracks: MediaStreamTrack[] = [];
    void openWanted(request.wish, request.choice).then(async (found) => {
      const opened = [found.camera, found.microphone].filter((track) => track !== null);
      // Opened after this request was replaced or the screen closed: nobody will show or stop them.
      if (isCancelled) return opened.forEach((track) => track.stop());
      tracks.push(...opened);
      setOpened({
        request,
        camera: found.camera,
        microphone: found.microphone,
        problem: found.problem,
      });
      const lists = await listDevices();
      if (!isCancelled) setDevices(lists);
    });
    return () => {
      isCancelled = true;
      if (!handedOver.current) for (const track of tracks) track.stop();
    };
  }, [request]);

  const isOpening = opened?.request !== request;
  const camera = isOpening ? null : (opened?.camera ?? null);
  const microphone = isOpening ? null : (opened?.microphone ?? null);
  const problem = opened?.problem ?? null;
  // What shows is what is open; a toggle asks for the other state of one device.
  const isCameraOn = camera !== null;
  const isMicrophoneOn = microphone !== null;
  const toggle = (device: keyof Wish) =>
    setRequest((current) => ({
      ...current,
      wish: {
        camera: device === 'camera' ? !isCameraOn : isCameraOn,
        microphone: device === 'microphone' ? !isMicrophoneOn : isMicrophoneOn,
      },
    }));
  const choose = (choice: DeviceChoice) =>
    setRequest((current) => ({ ...current, choice: { ...current.choice, ...choice } }));

  const join = () => {
    handedOver.current = true;
    onJoin({ camera, microphone });
  };

  return (
    <section aria-labelledby={headingId} className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <h1 id={headingId} className="text-2xl font-bold text-fg">
        <Trans>Ready to join?</Trans>
      </h1>
      {/* The room ID is one piece, left to right, in every language: never broken at its dashes. */}
      <p className="text-muted">
        <Trans>
          Room{' '}
          <bdi className={cn('font-mono font-semibold text-fg', wholeToken(roomId))} dir="ltr">
            {roomId}
          </bdi>
          . Choose your camera and microphone, then join.
        </Trans>
      </p>
      {startsMuted ? (
        <p className="text-fg">
          <Trans>
            You join with your microphone off, so the class stays quiet. Turn it on in the meeting when you need to
            speak.
          </Trans>
        </p>
      ) : null}
      {/* At most half the screen's height, so the choices and Join stay in view on a laptop. */}
      <div className="relative mx-auto aspect-video w-full max-w-[calc(50dvh*16/9)] overflow-hidden rounded-xl bg-surface-inverse">
        {camera ? (
          <VideoSurface track={camera} isMirrored label={t`Your camera preview`} />
        ) : (
          <p className="flex h-full items-center justify-center gap-2 text-fg-inverse">
            <VideoOff className="size-5" aria-hidden="true" />
            {isOpening ? t`Starting the camera…` : t`Your camera is off`}
          </p>
        )}
      </div>

      {problem ? (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-warning-line bg-warning-soft p-4 text-warning"
        >
          <AlertTriangle className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
          <div className="flex flex-col gap-3">
            <p>{deviceProblemText(problem)}</p>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                onClick={() => setRequest((current) => ({ ...current, wish: { camera: true, microphone: true } }))}
              >
                <Trans>Try again</Trans>
              </Button>
            </div>
          </div>
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" aria-pressed={isCameraOn} disabled={isOpening} onClick={() => toggle('camera')}>
          {isCameraOn ? (
            <Video className="size-4" aria-hidden="true" />
          ) : (
            <VideoOff className="size-4" aria-hidden="true" />
          )}
          <Trans>Camera</Trans>
        </Button>
        <Button
          variant="secondary"
          aria-pressed={isMicrophoneOn}
          disabled={isOpening}
          onClick={() => toggle('microphone')}
        >
          {isMicrophoneOn ? (
            <Mic className="size-4" aria-hidden="true" />
          ) : (
            <MicOff className="size-4" aria-hidden="true" />
          )}
          <Trans>Microphone</Trans>
        </Button>
      </div>

      {devices.cameras.length > 1 || devices.microphones.length > 1 ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <DeviceSelect
            label={t`Camera`}
            unnamed={(number) => t`Camera ${number}`}
            devices={devices.cameras}
            value={camera?.getSettings().deviceId}
            isDisabled={!isCameraOn || isOpening}
            onChange={(cameraId) => choose({ cameraId })}
          />
          <DeviceSelect
            label={t`Microphone`}
            unnamed={(number) => t`Microphone ${number}`}
            devices={devices.microphones}
            value={microphone?.getSettings().deviceId}
            isDisabled={!isMicrophoneOn || isOpening}
            onChange={(microphoneId) => choose({ microphoneId })}
          />
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2">
        <Button onClick={join} disabled={isOpening}>
          {isCameraOn || isMicrophoneOn ? t`Join meeting` : t`Join with camera and microphone off`}
        </Button>
      </div>
    </section>
  );
}

function DeviceSelect({
  label,
  unnamed,
  devices,
  value,
  isDisabled,
  onChange,
}: {
  label: string;
  /** A device whose name the browser keeps to itself: "Camera 2". */
  unnamed(number: string): string;
  devices: MediaDeviceInfo[];
  value: string | undefined;
  isDisabled: boolean;
  onChange(deviceId: string): void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {label}
      </label>
      <select
        id={id}
        value={value ?? ''}
        disabled={isDisabled || devices.length === 0}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-lg border border-line-strong bg-surface px-3 py-2.5 text-base text-fg disabled:bg-surface-muted"
      >
        {devices.map((device, index) => (
          <option key={device.deviceId} value={device.deviceId}>
            {device.label || unnamed(formatNumber(index + 1))}
          </option>
        ))}
      </select>
    </div>
  );
}
