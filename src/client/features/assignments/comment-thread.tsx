import { Trans, useLingui } from '@lingui/react/macro';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ASSIGNMENT_LIMITS, type HandInComment } from '#shared/assignments';
import {
  listHandInComments,
  listOwnHandInComments,
  postHandInComment,
  postOwnHandInComment,
} from '#shared/contract/hand-in-files';
import { Button } from '../../components/ui/button.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { call } from '../../lib/api.ts';
import { formatRelative } from '../../lib/format.ts';

/** Where a thread is: the student's own hand-in (no studentId) or a student's, for a teacher of their class. */
export type ThreadOf = { assignmentId: string; studentId?: string };

const threadKey = ({ assignmentId, studentId }: ThreadOf) =>
  ['assignments', assignmentId, 'hand-in', studentId ?? 'own', 'comments'] as const;

/**
 * The private thread of a hand-in (decision 061): its student and the class's teachers. Oldest
 * first, "Load more" for later ones; a new comment is added at its end.
 */
export function CommentThread({ thread }: { thread: ThreadOf }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const ids = { heading: useId(), field: useId(), count: useId() };
  const [text, setText] = useState('');
  const limit = ASSIGNMENT_LIMITS.commentPageSizeDefault;
  const { assignmentId, studentId } = thread;
  const list = useInfiniteQuery({
    queryKey: threadKey(thread),
    queryFn: ({ pageParam, signal }) =>
      studentId === undefined
        ? call(listOwnHandInComments, { params: { id: assignmentId }, query: { offset: pageParam, limit } }, { signal })
        : call(
            listHandInComments,
            { params: { id: assignmentId, studentId }, query: { offset: pageParam, limit } },
            { signal },
          ),
    initialPageParam: 0,
    getNextPageParam: ({ page }) => (page?.hasMore ? page.offset + page.limit : undefined),
  });
  const comments: HandInComment[] = list.data?.pages.flatMap((page) => page.data) ?? [];
  const post = useMutation({
    mutationFn: async (body: { text: string }) =>
      studentId === undefined
        ? (await call(postOwnHandInComment, { params: { id: assignmentId }, body })).data
        : (await call(postHandInComment, { params: { id: assignmentId, studentId }, body })).data,
    onSuccess: async () => {
      setText('');
      await queryClient.invalidateQueries({ queryKey: threadKey(thread) });
    },
  });
  const isBlank = text.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isBlank || post.isPending) return;
    post.mutate({ text });
  };
  const left = ASSIGNMENT_LIMITS.comment - text.length;

  return (
    <section aria-labelledby={ids.heading} className="flex flex-col gap-3">
      <h3 id={ids.heading} className="text-base font-semibold text-fg">
        <Trans>Private comments</Trans>
      </h3>
      {list.isPending ? (
        <p className="text-sm text-muted">
          <Trans>Loading…</Trans>
        </p>
      ) : comments.length === 0 ? (
        <p className="text-sm text-muted">
          {studentId === undefined ? (
            <Trans>No comments yet. Only you and your teachers see what you write here.</Trans>
          ) : (
            <Trans>No comments yet. Only this student and the class’s teachers see what you write here.</Trans>
          )}
        </p>
      ) : (
        <ol className="flex flex-col gap-2">
          {comments.map((comment) => {
            const name = comment.author.name;
            return (
              <li
                key={comment._id}
                className={`rounded-lg border border-line p-3 ${comment.mine ? 'ms-8 bg-brand-50' : 'me-8 bg-surface'}`}
              >
                <p className="text-xs text-muted">
                  {comment.mine ? (
                    <Trans>You</Trans>
                  ) : name ? (
                    <bdi>{name}</bdi>
                  ) : comment.author.role === 'teacher' ? (
                    <Trans>A former teacher</Trans>
                  ) : (
                    <Trans>The student</Trans>
                  )}
                  {' · '}
                  <time dateTime={comment.createdAt}>{formatRelative(comment.createdAt)}</time>
                </p>
                <p dir="auto" className="mt-1 text-sm break-words whitespace-pre-wrap text-fg">
                  {comment.text}
                </p>
              </li>
            );
          })}
        </ol>
      )}
      <LoadMoreButton list={list} className="mt-1" />
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor={ids.field} className="text-sm font-semibold text-fg">
          <Trans>Add a private comment</Trans>
        </label>
        <textarea
          id={ids.field}
          value={text}
          maxLength={ASSIGNMENT_LIMITS.comment}
          rows={3}
          aria-describedby={ids.count}
          onChange={(event) => setText(event.target.value)}
          className="rounded-lg border border-line bg-surface p-2 text-sm text-fg"
        />
        <p id={ids.count} className="text-xs text-muted">
          {t`${left} characters left`}
        </p>
        <div>
          <Button type="submit" aria-disabled={isBlank || post.isPending}>
            {post.isPending ? <Trans>Sending…</Trans> : <Trans>Send</Trans>}
          </Button>
        </div>
      </form>
    </section>
  );
}
