import { Trans, useLingui } from '@lingui/react/macro';
import { MicOff, MonitorUp, VideoOff } from 'lucide-react';
import type { ReactNode } from 'react';
import type { UserRole } from '#shared/constants';
import type { LinkState } from './peer-link.ts';
import { VideoSurface } from './video-surface.tsx';
import { HandMark } from './host-controls.tsx';

/** The letters of a name for the camera-off picture: "Ada Lovelace" → "AL". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words.at(-1)!] : words.slice(0, 1);
  return letters.map((word) => [...word][0]!.toUpperCase()).join('') || '?';
}

/**
 * One person (or one shared screen) in the grid: their video or, with the camera
 * off, their initials; their name; a muted-microphone mark; a ring while they
 * speak; "Connecting…" until their media can flow.
 */
export function ParticipantTile({
  name,
  role,
  video,
  isCameraOff,
  isMicOff,
  isSpeaking,
  link = 'connected',
  isLocal = false,
  isScreen = false,
  isHandRaised = false,
}: {
  name: string;
  role?: UserRole | undefined;
  video: { track?: MediaStreamTrack | null; stream?: MediaStream | null };
  isCameraOff: boolean;
  isMicOff: boolean;
  isSpeaking: boolean;
  link?: LinkState;
  isLocal?: boolean;
  isScreen?: boolean;
  isHandRaised?: boolean;
}) {
  const { t } = useLingui();
  const title = isScreen ? t`${name}'s screen` : isLocal ? t`${name} (you)` : name;
  const badges: ReactNode[] = [];
  if (!isScreen && isMicOff) {
    badges.push(
      <span key="mic" className="flex items-center gap-1">
        <MicOff className="size-4" aria-hidden="true" />
        <span className="sr-only">
          <Trans>Microphone off</Trans>
        </span>
      </span>,
    );
  }
  if (!isScreen && isHandRaised) {
    badges.push(<HandMark key="hand" />);
  }
  return (
    <div
      role="group"
      aria-label={title}
      data-speaking={isSpeaking || undefined}
      className={`@container relative flex min-h-0 items-center justify-center overflow-hidden rounded-xl bg-surface-inverse-raised ring-offset-2 ring-offset-surface-inverse transition-shadow ${isSpeaking ? 'ring-4 ring-success-inverse' : ''}`}
    >
      {isCameraOff ? (
        // Small tiles (a phone, many people) keep room for the name: a smaller picture, the words for screen readers.
        <div className="flex flex-col items-center gap-2 pb-8 text-fg-inverse">
          <span
            aria-hidden="true"
            className="flex size-10 items-center justify-center rounded-full bg-brand-700 text-lg font-semibold text-white @[14rem]:size-16 @[14rem]:text-2xl @[24rem]:size-20"
          >
            {initialsOf(name)}
          </span>
          <span className="flex items-center gap-1 text-sm @max-[12rem]:sr-only">
            <VideoOff className="size-4" aria-hidden="true" />
            <Trans>Camera off</Trans>
          </span>
        </div>
      ) : (
        <VideoSurface
          {...video}
          label={isScreen ? t`${name}'s shared screen` : t`${name}'s camera`}
          isMirrored={isLocal && !isScreen}
          fit={isScreen ? 'contain' : 'cover'}
        />
      )}
      {link !== 'connected' ? (
        <p
          className="absolute inset-x-0 top-0 bg-surface-inverse/75 px-3 py-1.5 text-center text-sm text-white"
          role="status"
        >
          {link === 'failed' ? t`Connection problem. Trying again…` : t`Connecting…`}
        </p>
      ) : null}
      <p className="absolute start-2 bottom-2 flex max-w-[calc(100%-1rem)] items-center gap-2 rounded-md bg-surface-inverse/75 px-2 py-1 text-sm text-white">
        {isScreen ? <MonitorUp className="size-4 shrink-0" aria-hidden="true" /> : null}
        <bdi className="truncate">{title}</bdi>
        {role === 'teacher' && !isScreen ? (
          <span className="text-xs text-fg-inverse-muted">
            <Trans>Teacher</Trans>
          </span>
        ) : null}
        {badges}
      </p>
    </div>
  );
}
