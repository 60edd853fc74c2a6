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
  what,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  /** "your classes", "the roster": the loading and failure say it. */
  what: string;
  empty: { title: string; hint: string };
  children(items: T[]): ReactNode;
}) {
  if (query.isPending) return <LoadingStatus>Loading {what}…</LoadingStatus>;
  if (query.isError) {
    return (
      <LoadFailure
        title={`${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded.`}
        message={query.error.message}
        onRetry={() => void query.refetch()}
      />
    );
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
  return (
    <>
      <TextField
        label="Class name"
        {...form.field('name')}
        defaultValue={defaults?.name}
        maxLength={FIELD_LIMITS.className}
        autoComplete="off"
        required
      />
      <TextField
        label="Subject (optional)"
        {...form.field('subject')}
        defaultValue={defaults?.subject ?? undefined}
        maxLength={FIELD_LIMITS.subject}
        autoComplete="off"
      />
    </>
  );
}
