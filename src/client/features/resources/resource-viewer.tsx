import { CircleStop, Expand, Play } from 'lucide-react';
import { Component as ReactComponent, lazy, Suspense, useId, useState, type ReactNode } from 'react';
import type { Resource } from '#shared/resources';
import { Button } from '../../components/ui/button.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { ModalDialog } from './modal-dialog.tsx';
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
 * because it only mounts when the person pressed Play.
 */
export function VideoPlayer({ resource }: { resource: Resource }) {
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
          />
        </Suspense>
      </PlayerBoundary>
      <figcaption className="sr-only">Video: {resource.fileName}</figcaption>
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
          widthClassName="w-[min(60rem,calc(100%-2rem))]"
        >
          {() => (
            <img
              src={resource.fileURL}
              alt={alt}
              className="mx-auto mt-4 max-h-[70vh] w-full rounded-lg bg-slate-100 object-contain"
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
