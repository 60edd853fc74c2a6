import { useEffect, useMemo, useRef } from 'react';

/**
 * A silent <video> showing one track or stream (sound plays through its own
 * <audio>, so a hidden video never silences anyone). `label` names it for
 * screen readers; `isMirrored` for one's own camera, as in a mirror.
 */
export function VideoSurface({
  track,
  stream,
  label,
  isMirrored = false,
  fit = 'cover',
}: {
  track?: MediaStreamTrack | null;
  stream?: MediaStream | null;
  label: string;
  isMirrored?: boolean;
  fit?: 'cover' | 'contain';
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const source = useMemo(() => stream ?? (track ? new MediaStream([track]) : null), [stream, track]);
  useEffect(() => {
    const video = ref.current;
    if (!video || video.srcObject === source) return;
    video.srcObject = source;
    if (source) void video.play().catch(() => undefined); // autoplay of a muted video is always allowed
  }, [source]);
  return (
    <video
      ref={ref}
      aria-label={label}
      autoPlay
      playsInline
      muted
      className={`h-full w-full ${fit === 'cover' ? 'object-cover' : 'object-contain'} ${isMirrored ? '-scale-x-100' : ''}`}
    />
  );
}

/** A participant's sound, played while the page is open. */
export function RemoteAudio({ stream }: { stream: MediaStream }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const audio = ref.current;
    if (!audio) return;
    audio.srcObject = stream;
    void audio.play().catch(() => undefined); // allowed: the person clicked Join
  }, [stream]);
  // eslint-disable-next-line jsx-a11y/media-has-caption -- a live call's sound: there is no caption file to give
  return <audio ref={ref} autoPlay className="hidden" />;
}
