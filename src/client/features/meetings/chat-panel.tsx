import { Trans, useLingui } from '@lingui/react/macro';
import { Send, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { MEETING_LIMITS } from '#shared/meetings';
import { Button } from '../../components/ui/button.tsx';
import { formatClock } from '../../lib/format.ts';
import type { MeetingSession } from './meeting-session.ts';
import type { ChatLine } from './room-state.ts';

/** The room's text chat: everyone's lines in the server's order, and a line to write. */
export function ChatPanel({
  session,
  lines,
  canSend,
  onClose,
}: {
  session: MeetingSession;
  lines: ChatLine[];
  canSend: boolean;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const headingId = useId();
  const inputId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => inputRef.current?.focus(), []);
  // Follow the conversation (the newest line stays in view) unless the reader scrolled back to older lines.
  const isFollowing = useRef(true);
  const newestLineId = lines.at(-1)?.id;
  useEffect(() => {
    const list = listRef.current;
    if (list && isFollowing.current) list.scrollTop = list.scrollHeight;
  }, [newestLineId]);
  const noteScroll = () => {
    const list = listRef.current;
    if (list) isFollowing.current = list.scrollHeight - list.scrollTop - list.clientHeight < 48;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (session.sendChat(text)) {
      setText('');
      isFollowing.current = true; // one's own line is always shown
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex min-h-0 flex-1 flex-col">
      <PanelHeader id={headingId} title={t`Chat`} closeLabel={t`Close chat`} onClose={onClose} />
      {/* The scrolling log takes the focus, so keyboard users can scroll back through it. */}
      <div
        ref={listRef}
        role="log"
        aria-labelledby={headingId}
        tabIndex={0}
        onScroll={noteScroll}
        className="min-h-0 flex-1 overflow-y-auto p-3 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <ol className="flex flex-col gap-3">
          {lines.length === 0 ? (
            <li className="text-sm text-muted">
              <Trans>No messages yet. Say hello!</Trans>
            </li>
          ) : null}
          {lines.map((line) => (
            <li key={line.id} className={`flex flex-col ${line.isMine ? 'items-end' : 'items-start'}`}>
              <span className="text-xs text-muted">
                {line.isMine ? t`You` : <bdi>{line.name}</bdi>} ·{' '}
                <time dateTime={line.sentAt}>{formatClock(new Date(line.sentAt))}</time>
              </span>
              {/* The writer's own text: its direction follows its first strong letter, whatever the page's. */}
              <span
                dir="auto"
                className={`max-w-[90%] rounded-lg px-3 py-2 text-sm wrap-anywhere whitespace-pre-wrap ${line.isMine ? 'bg-brand-600 text-white' : 'bg-surface-muted text-fg'}`}
              >
                {line.text}
              </span>
            </li>
          ))}
        </ol>
      </div>
      <form onSubmit={submit} className="flex items-end gap-2 border-t border-line p-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="sr-only">
            <Trans>Message</Trans>
          </label>
          <input
            ref={inputRef}
            id={inputId}
            value={text}
            maxLength={MEETING_LIMITS.chatMaxLength}
            onChange={(event) => setText(event.target.value)}
            placeholder={t`Write a message`}
            autoComplete="off"
            dir="auto"
            className="w-full rounded-lg border border-line-strong px-3 py-2 text-base outline-none focus:ring-2 focus:ring-brand-500"
          />
        </div>
        <Button type="submit" disabled={!canSend || !text.trim()} size="custom" className="px-3 py-2.5 text-sm">
          <Send className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          <Trans>Send</Trans>
        </Button>
      </form>
    </section>
  );
}

/** A side panel's title and its close button. */
export function PanelHeader({
  id,
  title,
  closeLabel,
  onClose,
}: {
  id: string;
  title: string;
  /** The close button's name, "Close chat": a whole phrase, as other languages word it. */
  closeLabel: string;
  onClose(): void;
}) {
  return (
    <div className="flex items-center justify-between border-b border-line px-3 py-2">
      <h2 id={id} className="font-semibold text-fg">
        {title}
      </h2>
      <Button variant="ghost" size="custom" className="px-2 py-1.5 text-sm" onClick={onClose} aria-label={closeLabel}>
        <X className="size-5" aria-hidden="true" />
      </Button>
    </div>
  );
}
