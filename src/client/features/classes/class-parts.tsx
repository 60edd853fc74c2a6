import { useLingui } from '@lingui/react/macro';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import type { EndpointForm } from '../../components/form/use-endpoint-form.ts';
import { TextField } from '../../components/ui/field.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';

/** A list query's loading, failure and empty states, or the list (the class screens' lists are not paged). */
export function ListQueryContent<T>({
  query,
  loading,
  failure,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  /** "Loading your classes…": whole sentences, each translated as one. */
  loading: string;
  /** "Your classes could not be loaded." */
  failure: string;
  empty: { title: string; hint: string };
  children(items: T[]): ReactNode;
}) {
  if (query.isPending) return <LoadingStatus>{loading}</LoadingStatus>;
  if (query.isError) {
    return <LoadFailure title={failure} message={query.error.message} onRetry={() => void query.refetch()} />;
  }
  if (query.data.length === 0) return <EmptyState title={empty.title} hint={empty.hint} />;
  return children(query.data);
}

/** A class's name and optional subject, in a new-class or a class's form (the names its body schema reads). */
export function ClassFields({
  form,
  defaults,
}: {
  form: EndpointForm;
  defaults?: { name: string; subject: string | null };
}) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`Class name`}
        {...form.field('name')}
        defaultValue={defaults?.name}
        maxLength={FIELD_LIMITS.className}
        autoComplete="off"
        required
      />
      <TextField
        label={t`Subject (optional)`}
        {...form.field('subject')}
        defaultValue={defaults?.subject ?? undefined}
        maxLength={FIELD_LIMITS.subject}
        autoComplete="off"
      />
    </>
  );
}
