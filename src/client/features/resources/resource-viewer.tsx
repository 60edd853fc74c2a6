import { Trans, useLingui } from '@lingui/react/macro';
import { CircleStop, Expand, Play } from 'lucide-react';
import { useId, useState } from 'react';
import { videoLinkProvider, type Resource } from '#shared/resources';
import { videoEmbedAddress } from '#shared/video-embeds';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { NewTabLink } from './resource-parts.tsx';
import { isImage, isVideo } from './resource-filters.ts';

/**
 * The inline video player. An uploaded video plays from our signed address in a
 * native <video>; a hosted video (YouTube, Vimeo, Wistia) plays in
 * the provider's own embed page, in a frame: no provider script runs in our
 * page, where it could read the session (decision 018). Either starts at once,
 * because it only mounts when the person pressed Play.
 */
export function VideoPlayer({ resource }: { resource: Resource }) {
  const { t } = useLingui();
  const { fileName } = resource;
  const title = t`Video: ${fileName}`;
  return (
    <figure className="overflow-hidden rounded-lg bg-surface-inverse">
      {resource.kind === 'link' ? (
        <HostedVideoFrame resource={resource} title={title} />
      ) : (
        <UploadedVideo resource={resource} />
      )}
      <figcaption className="sr-only">{title}</figcaption>
    </figure>
  );
}

/**
 * An uploaded video from our signed, same-origin address in the browser's own player: the
 * file route answers Range requests, so it seeks and streams (decision 027; react-player did
 * the same with 190 MB of dependencies and 595 kB of script).
 */
function UploadedVideo({ resource }: { resource: Resource }) {
  const [hasFailed, setHasFailed] = useState(false);
  if (hasFailed) {
    return (
      <p className="p-4 text-sm text-white">
        <Trans>This video cannot be played here.</Trans>{' '}
        <NewTabLink href={resource.fileURL} className="font-semibold text-white underline">
          <Trans>Open the video</Trans>
        </NewTabLink>
      </p>
    );
  }
  return (
    // eslint-disable-next-line jsx-a11y/media-has-caption -- an upload is one file and carries no caption track yet (decision 028)
    <video
      src={resource.fileURL}
      controls
      autoPlay
      playsInline
      preload="auto"
      className="aspect-video w-full bg-surface-inverse"
      onError={() => setHasFailed(true)}
    >
      <NewTabLink href={resource.fileURL} className="font-semibold text-white underline">
        <Trans>Open the video</Trans>
      </NewTabLink>
    </video>
  );
}

/**
 * The provider's player in a frame (frame-src allows exactly these origins). A
 * frame cannot tell us that it failed to load (offline, the video removed), so
 * the link to the video is always offered under it.
 */
function HostedVideoFrame({ resource, title }: { resource: Resource; title: string }) {
  const embedAddress = videoEmbedAddress(resource.fileURL);
  const provider = videoLinkProvider(resource.fileURL)?.name;
  const link = (
    <NewTabLink href={resource.fileURL} className="font-semibold text-white underline">
      {provider ? <Trans>Open the video on {provider}</Trans> : <Trans>Open the video on its site</Trans>}
    </NewTabLink>
  );
  if (!embedAddress) {
    return (
      <p className="p-4 text-sm text-white">
        <Trans>This link cannot be played here.</Trans> {link}
      </p>
    );
  }
  return (
    <>
      <iframe
        src={embedAddress}
        title={title}
        className="aspect-video w-full border-0 bg-surface-inverse"
        allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
        // Our pages send no referrer; YouTube refuses to play embeds that do not say where they are (our origin only).
        referrerPolicy="strict-origin-when-cross-origin"
      />
      <p className="px-4 py-2 text-sm text-white">
        <Trans>Not playing?</Trans> {link}
      </p>
    </>
  );
}

/** An uploaded image: a small lazy preview, and the full picture in a dialog. */
export function ImagePreview({ resource }: { resource: Resource }) {
  const { t } = useLingui();
  const [isOpen, setIsOpen] = useState(false);
  const { fileName, description } = resource;
  const alt = description
    ? t({ comment: "A picture's name and its description", message: `${fileName}: ${description}` })
    : fileName;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <img
        src={resource.fileURL}
        alt={t`Preview of ${fileName}`}
        loading="lazy"
        width={160}
        height={112}
        className="h-28 w-40 rounded-lg border border-line bg-surface-muted object-cover"
      />
      <Button variant="secondary" size="compact" onClick={() => setIsOpen(true)}>
        <Expand className="size-4" aria-hidden="true" />
        <Trans>
          View larger<span className="sr-only"> {fileName}</span>
        </Trans>
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
  const { fileName } = resource;
  if (isImage(resource)) return <ImagePreview resource={resource} />;
  if (!isVideo(resource)) return null;
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button
          variant={isPlaying ? 'secondary' : 'primary'}
          size="compact"
          aria-expanded={isPlaying}
          aria-controls={playerId}
          onClick={() => setIsPlaying((current) => !current)}
        >
          {isPlaying ? (
            <CircleStop className="size-4" aria-hidden="true" />
          ) : (
            <Play className="size-4" aria-hidden="true" />
          )}
          {isPlaying ? (
            <Trans>
              Close player<span className="sr-only"> {fileName}</span>
            </Trans>
          ) : (
            <Trans comment="Plays a video">
              Play<span className="sr-only"> {fileName}</span>
            </Trans>
          )}
        </Button>
      </div>
      <div id={playerId}>{isPlaying ? <VideoPlayer resource={resource} /> : null}</div>
    </div>
  );
}
