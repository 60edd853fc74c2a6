import { CircleStop, Expand, Play } from 'lucide-react';
import { Component as ReactComponent, lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Resource } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { isPlayerScriptFailure, titleFramesWithin } from './player-frames.ts';
import { NewTabLink } from './resource-parts.tsx';
import { isImage, isVideo } from './resource-filters.ts';

// react-player and its provider elements are heavy: they load only when a video is played.
const ReactPlayer = lazy(() => import('react-player'));

/** Keeps a player that failed to load (or to start) from taking the whole screen down. */
class PlayerBoundary extends ReactComponent<{ fallback: ReactNode; children: ReactNode }, { hasFailed: boolean }> {
  override state = { hasFailed: false };
  static getDerivedStateFromError() {
    return { hasFailed: true };
  }
  override render() {
    return this.state.hasFailed ? this.props.fallback : this.props.children;
  }
}

/**
 * The inline video player: uploaded videos from our signed address, hosted
 * videos (YouTube, Vimeo, Wistia) from their link. It starts playing at once,
 * because it only mounts when the person pressed Play. A player that cannot
 * load (offline, a broken file, the provider's script blocked) gives way to a
 * link that opens the video instead.
 */
export function VideoPlayer({ resource }: { resource: Resource }) {
  const [hasFailed, setHasFailed] = useState(false);
  const frameRef = useRef<HTMLDivElement>(null);
  const title = `Video: ${resource.fileName}`;
  const isHosted = resource.kind === 'link';

  useEffect(() => {
    if (!frameRef.current) return;
    return titleFramesWithin(frameRef.current, title);
  }, [title, hasFailed]);

  // A hosted player whose script cannot load rejects a promise nobody catches
  // (youtube-video-element's load()): that is this player failing, and handled here.
  useEffect(() => {
    if (!isHosted) return;
    const handleRejection = (event: PromiseRejectionEvent) => {
      if (!isPlayerScriptFailure(event.reason)) return;
      event.preventDefault();
      setHasFailed(true);
    };
    window.addEventListener('unhandledrejection', handleRejection);
    return () => window.removeEventListener('unhandledrejection', handleRejection);
  }, [isHosted]);

  const fallback = (
    <p className="p-4 text-sm text-white">
      The player could not be loaded.{' '}
      <NewTabLink href={resource.fileURL} className="font-semibold text-white underline">
        Open the video
      </NewTabLink>
    </p>
  );
  return (
    <figure className="overflow-hidden rounded-lg bg-slate-900">
      {hasFailed ? (
        fallback
      ) : (
        <div ref={frameRef}>
          <PlayerBoundary fallback={fallback}>
            <Suspense fallback={<LoadingStatus className="p-4 text-white">Loading the player…</LoadingStatus>}>
              <ReactPlayer
                src={resource.fileURL}
                playing
                controls
                playsInline
                preload="auto"
                width="100%"
                height="auto"
                style={{ aspectRatio: '16 / 9', backgroundColor: '#0f172a' }}
                onError={() => setHasFailed(true)}
              />
            </Suspense>
          </PlayerBoundary>
        </div>
      )}
      <figcaption className="sr-only">{title}</figcaption>
    </figure>
  );
}

/** An uploaded image: a small lazy preview, and the full picture in a dialog. */
export function ImagePreview({ resource }: { resource: Resource }) {
  const [isOpen, setIsOpen] = useState(false);
  const alt = resource.description ? `${resource.fileName}: ${resource.description}` : resource.fileName;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <img
        src={resource.fileURL}
        alt={`Preview of ${resource.fileName}`}
        loading="lazy"
        width={160}
        height={112}
        className="h-28 w-40 rounded-lg border border-slate-200 bg-slate-100 object-cover"
      />
      <Button variant="secondary" className="px-3 py-2" onClick={() => setIsOpen(true)}>
        <Expand className="size-4" aria-hidden="true" />
        View larger<span className="sr-only"> {resource.fileName}</span>
      </Button>
      {isOpen ? (
        <ModalDialog
          title={resource.fileName}
          onClose={() => setIsOpen(false)}
          // As wide as the picture (or its name) needs, within the screen.
          widthClassName="w-fit min-w-[min(20rem,calc(100%-2rem))] max-w-[min(60rem,calc(100%-2rem))]"
        >
          {() => (
            // At most its natural size, never blown up (a 48 px icon stays 48 px).
            <img
              src={resource.fileURL}
              alt={alt}
              className="mx-auto mt-4 block h-auto max-h-[70vh] max-w-full rounded-lg"
            />
          )}
        </ModalDialog>
      ) : null}
    </div>
  );
}

/**
 * What a resource offers besides its link: videos a Play button that opens
 * the player inline, images a preview.
 */
export function ResourceMedia({ resource }: { resource: Resource }) {
  const [isPlaying, setIsPlaying] = useState(false);
  const playerId = useId();
  if (isImage(resource)) return <ImagePreview resource={resource} />;
  if (!isVideo(resource)) return null;
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button
          variant={isPlaying ? 'secondary' : 'primary'}
          className="px-3 py-2"
          aria-expanded={isPlaying}
          aria-controls={playerId}
          onClick={() => setIsPlaying((current) => !current)}
        >
          {isPlaying ? (
            <CircleStop className="size-4" aria-hidden="true" />
          ) : (
            <Play className="size-4" aria-hidden="true" />
          )}
          {isPlaying ? 'Close player' : 'Play'}
          <span className="sr-only"> {resource.fileName}</span>
        </Button>
      </div>
      <div id={playerId}>{isPlaying ? <VideoPlayer resource={resource} /> : null}</div>
    </div>
  );
}
