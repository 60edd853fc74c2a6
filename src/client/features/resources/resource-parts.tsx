import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { RESOURCE_LIMITS, videoLinkProvider, type Resource } from '#shared/resources';
import { SearchField } from '../../components/ui/filter-fields.tsx';
import type { TextInput } from '../../lib/url-filters.ts';
import { formatDay } from '../../lib/format.ts';
import { joinTags } from './resource-filters.ts';
import { formatSizeInKilobytes } from '../../lib/file-sizes.ts';

/** The search box of both resource lists: names and descriptions. */
export function ResourceSearchField(input: TextInput) {
  const { t } = useLingui();
  return (
    <SearchField label={t`Search`} maxLength={RESOURCE_LIMITS.search} placeholder={t`Name or description`} {...input} />
  );
}

/** A link that opens in a new tab and says so to screen readers. */
export function NewTabLink({ href, className, children }: { href: string; className: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only">
        {' '}
        <Trans>(opens in a new tab)</Trans>
      </span>
    </a>
  );
}

/** The resource's name as the link to the file (SPEC §2), wrapping however long it is. */
export function ResourceName({ resource }: { resource: Resource }) {
  return (
    <h3 className="min-w-0 text-base font-semibold wrap-anywhere">
      <NewTabLink href={resource.fileURL} className="rounded text-brand-700 underline-offset-2 hover:underline">
        {resource.fileName}
        <ExternalLink className="ms-1.5 inline size-3.5 align-baseline" aria-hidden="true" />
      </NewTabLink>
    </h3>
  );
}

/** The type as people read it: the mime type of an upload, the provider of a hosted video. */
export function describeType(resource: Resource): string {
  if (resource.kind === 'link') {
    const provider = videoLinkProvider(resource.fileURL)?.name;
    return provider ? translate`${provider} video link` : translate`Video link`;
  }
  return resource.mimeType;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="inline font-medium text-muted">
        <Trans comment="A fact's name before its value, e.g. Subject: maths">{label}:</Trans>{' '}
      </dt>
      <dd className="inline wrap-anywhere text-fg">{children}</dd>
    </div>
  );
}

/** Description, comma-joined tags and the facts of one resource. */
export function ResourceDetails({ resource, isClassShown = false }: { resource: Resource; isClassShown?: boolean }) {
  const { t } = useLingui();
  return (
    <>
      {resource.description ? (
        <p className="text-sm wrap-break-word whitespace-pre-line text-fg">{resource.description}</p>
      ) : null}
      {resource.tags.length > 0 ? (
        <p className="text-sm wrap-break-word text-fg">
          <span className="font-medium text-muted">
            <Trans>Tags:</Trans>{' '}
          </span>
          {joinTags(resource.tags)}
        </p>
      ) : null}
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {isClassShown ? <Fact label={t`Class`}>{resource.class}</Fact> : null}
        <Fact label={t`Subject`}>{resource.subject}</Fact>
        <Fact label={t({ comment: 'The type of a resource: documents, images, videos', message: 'Type' })}>
          {describeType(resource)}
        </Fact>
        {resource.kind === 'file' ? <Fact label={t`Size`}>{formatSizeInKilobytes(resource.size)}</Fact> : null}
        <Fact label={t({ comment: 'The date a resource was added', message: 'Added' })}>
          {formatDay(resource.createdAt)}
        </Fact>
      </dl>
    </>
  );
}

/** The card around one resource of a list. */
export const RESOURCE_CARD_CLASSES =
  'flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-surface p-4 shadow-sm';
