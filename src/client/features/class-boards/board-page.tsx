import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import toast from 'react-hot-toast/headless';
import { useParams } from 'react-router';
import type { BoardPen } from '#shared/class-boards';
import { BackLink } from '../../components/ui/back-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { EmptyState } from '../../components/ui/status-cards.tsx';
import { formatNumber, isolate } from '../../lib/format.ts';
import { whiteboardShortcut } from '../../components/drawing/keyboard-shortcuts.ts';
import { classPath } from '../classes/class-paths.ts';
import { classQueries } from '../classes/classes-queries.ts';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { BoardCanvas, FIRST_TOOL, type BoardTool } from './board-canvas.tsx';
import type { BoardEndReason, BoardSession, BoardState } from './board-model.ts';
import { BoardToolbar } from './board-toolbar.tsx';
import { PagesBar } from './pages-bar.tsx';
import { PenPanel } from './pen-panel.tsx';
import { refusalText } from './board-texts.ts';
import { useBoardSession } from './use-board-session.ts';

/**
 * /dashboard/teacher/classes/:id/board and /dashboard/student/classes/:id/board (issue 35): the
 * class's board, drawn on together. Its own lazy chunk: Yjs and the session come with it only.
 */
export function Component() {
  const { id = '' } = useParams();
  const role = useDashboardRole();
  const { t } = useLingui();
  const taught = useQuery({ ...classQueries.mine(), enabled: role === 'teacher' });
  const joined = useQuery({ ...classQueries.ofStudent(), enabled: role === 'student' });
  const classes = role === 'teacher' ? taught : joined;
  const list: readonly { _id: string; name: string }[] | undefined = classes.data;
  const entry = list ? (list.find((candidate) => candidate._id === id) ?? null) : undefined;
  const className = entry?.name;
  const backTo = role === 'teacher' ? classPath(id) : '/dashboard/student/classes';
  const classTitle = className ? isolate(className) : '';
  return (
    <div className="flex w-full flex-col gap-3 pb-6">
      <PageTitle>{classTitle ? t`Class board · ${classTitle}` : t`Class board`}</PageTitle>
      <BackLink to={backTo} className="self-start">
        {role === 'teacher' ? t`Back to the class` : t`Back to my classes`}
      </BackLink>
      {/* The board opens while the class list comes (its name is the header's): a big board's
          download started with the page, and its first paint should not wait for the list. */}
      {entry === null ? (
        <EmptyState title={t`This class is not one of yours`} hint={t`It may not exist, or you are no longer in it.`} />
      ) : (
        <BoardScreen key={id} classId={id} className={className ?? ''} />
      )}
    </div>
  );
}

function BoardScreen({ classId, className }: { classId: string; className: string }) {
  const { t } = useLingui();
  const { state, session } = useBoardSession(classId);
  const [chosenPageId, setChosenPageId] = useState<string | null>(null);
  const [tool, setTool] = useState<BoardTool>(FIRST_TOOL);
  const [isPenPanelOpen, setIsPenPanelOpen] = useState(false);
  const [isExporting, setIsExporting] = useState(false);
  const boardRef = useRef<HTMLDivElement>(null);

  const current = state.pages.find((page) => page.id === chosenPageId) ?? state.pages[0] ?? null;
  const strokes = current ? session.strokesOf(current.id) : [];
  const canDraw = state.canDraw && state.status !== 'ended';
  const isPenPanelShown = state.isTeacher && isPenPanelOpen && state.status !== 'ended';

  // The export's code is fetched once the board is in, so a page gone offline can still export.
  useEffect(() => {
    if (state.isLoaded) void import('./board-export.ts').catch(() => undefined);
  }, [state.isLoaded]);
  const announcementRef = useBoardAnnouncement(state);
  useRefusalToasts(state);
  useUndoShortcuts(session, canDraw, boardRef);

  const exportPng = async () => {
    if (!current) return;
    setIsExporting(true);
    try {
      const { exportPagePng, downloadBlob, fileNameOf } = await import('./board-export.ts');
      downloadBlob(await exportPagePng(strokes), `${fileNameOf(className, current.name)}.png`);
    } catch {
      toast.error(t`The page could not be saved as a picture.`);
    } finally {
      setIsExporting(false);
    }
  };
  const exportPdf = async () => {
    setIsExporting(true);
    try {
      const { exportBoardPdf, downloadBlob, fileNameOf } = await import('./board-export.ts');
      const pages = state.pages.map((page) => session.strokesOf(page.id));
      downloadBlob(await exportBoardPdf(pages), `${fileNameOf(className)}.pdf`);
    } catch {
      toast.error(t`The board could not be saved as a PDF.`);
    } finally {
      setIsExporting(false);
    }
  };

  const addPage = () => {
    const pageNumber = state.pages.length + 1;
    const number = formatNumber(pageNumber);
    const added = session.addPage(t({ comment: 'The name of a new class board page', message: `Page ${number}` }));
    if (added) setChosenPageId(added);
  };

  return (
    <div ref={boardRef} className="flex flex-col gap-3">
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-col">
          <h1 className="text-xl font-semibold wrap-anywhere text-fg">
            {className ? (
              <Trans>
                Class board · <bdi>{className}</bdi>
              </Trans>
            ) : (
              <Trans>Class board</Trans>
            )}
          </h1>
          <BoardStatusLine state={state} />
          <p ref={announcementRef} role="status" className="sr-only" />
        </div>
        {state.isTeacher && state.status !== 'ended' ? (
          <Button
            variant="secondary"
            aria-expanded={isPenPanelOpen}
            aria-controls="board-pen-panel"
            onClick={() => setIsPenPanelOpen((open) => !open)}
          >
            <Users className="size-4" aria-hidden="true" />
            {t`Who draws`}
          </Button>
        ) : null}
      </header>
      {/* The pen panel: above the board on a phone or a tablet (the page scrolls), beside the drawing
          from lg, under the pages and tools across the width (placed in the grid's second row, the rest
          flows around it), so the drawing keeps its size while the panel is open. */}
      <div
        className={`flex flex-col gap-3 ${isPenPanelShown ? 'lg:grid lg:grid-cols-[minmax(0,1fr)_18rem] lg:items-start' : ''}`}
      >
        {isPenPanelShown ? (
          <div
            id="board-pen-panel"
            className="rounded-xl border border-line bg-surface p-4 lg:col-start-2 lg:row-start-2"
          >
            <PenPanel
              classId={classId}
              pen={state.pen}
              presentIds={new Set(state.peers.filter((peer) => !peer.teacher).map((peer) => peer.userId))}
            />
          </div>
        ) : null}
        <div className="flex min-w-0 flex-col gap-3 lg:col-span-2">
          <PagesBar
            pages={state.pages}
            currentId={current?.id ?? null}
            onSelect={setChosenPageId}
            isTeacher={state.isTeacher && state.status !== 'ended'}
            onAdd={addPage}
            onRename={(pageId, name) => session.renamePage(pageId, name)}
            onMove={(pageId, beforeId) => session.movePage(pageId, beforeId)}
            onDelete={(pageId) => {
              session.deletePage(pageId);
              setChosenPageId(null);
            }}
          />
          <BoardToolbar
            tool={tool}
            onToolChange={setTool}
            canDraw={canDraw && current !== null}
            canUndo={state.canUndo}
            canRedo={state.canRedo}
            onUndo={() => session.undo()}
            onRedo={() => session.redo()}
            onClearPage={(pageId) => session.clearPage(pageId)}
            pageId={current?.id ?? ''}
            pageName={current?.name ?? ''}
            canUndoClear={state.isTeacher || strokes.every((stroke) => stroke.author === state.me.id)}
            isExporting={isExporting || state.pages.length === 0}
            onExportPng={() => void exportPng()}
            onExportPdf={() => void exportPdf()}
            showCursors={state.showCursors}
            onShowCursorsChange={(show) => session.setShowCursors(show)}
          />
          {!canDraw && state.status !== 'ended' && state.pen ? <ReadOnlyNote pen={state.pen} /> : null}
        </div>
        <div className="flex min-w-0 flex-col">
          {current ? (
            <BoardCanvas
              session={session}
              pageId={current.id}
              pageName={current.name}
              strokes={strokes}
              tool={tool}
              canDraw={canDraw}
              peers={state.peers}
              showCursors={state.showCursors}
              isLoaded={state.isLoaded}
            />
          ) : state.status === 'connecting' && !state.hasSynced ? (
            <LoadingStatus>{t`Opening the class board…`}</LoadingStatus>
          ) : (
            <EmptyState
              title={t`This board has no pages yet`}
              hint={state.isTeacher ? t`Add a page to start drawing.` : t`Your teacher adds the first page.`}
            />
          )}
        </div>
      </div>
    </div>
  );
}

/** Why a person without the pen cannot draw, and what to do about it. */
export function ReadOnlyNote({ pen }: { pen: BoardPen }) {
  return (
    <p role="note" className="rounded-lg border border-line bg-surface-sunken px-3 py-2 text-sm text-fg">
      {pen.mode === 'named' ? (
        <Trans>Only the teachers and the students they chose can draw; ask your teacher for the pen.</Trans>
      ) : (
        <Trans>Only the teachers can draw; ask your teacher for the pen.</Trans>
      )}
    </p>
  );
}

/** The connection and saving, shown; a screen reader hears only its meaningful changes (useBoardAnnouncement). */
function BoardStatusLine({ state }: { state: BoardState }) {
  const { t, i18n } = useLingui();
  const unsaved = state.unsavedCount;
  const text =
    state.status === 'ended'
      ? i18n._(endText(state.endReason))
      : state.status === 'offline'
        ? unsaved > 0
          ? plural(unsaved, {
              one: 'Offline: # change kept here, sent when you are back',
              other: 'Offline: # changes kept here, sent when you are back',
            })
          : t`Offline: reconnecting…`
        : state.status === 'connecting'
          ? t`Connecting…`
          : state.savedAll
            ? t`Saved`
            : t`Saving…`;
  return (
    <p className={`text-sm ${state.status === 'synced' ? 'text-muted' : 'text-fg'}`}>
      {text}
      {state.peers.length > 0 ? (
        <span className="text-muted">
          {' · '}
          {plural(state.peers.length, { one: '# other person here', other: '# other people here' })}
        </span>
      ) : null}
    </p>
  );
}

/**
 * What a closed board says, by reason: descriptors (a `t` passed in as a parameter is not one the
 * macro rewrites, and shows nothing).
 */
const END_TEXTS: Partial<Record<BoardEndReason, MessageDescriptor>> = {
  REPLACED: msg`You opened this board in another tab: it is read only here.`,
  FORBIDDEN: msg`This board is not one of your classes.`,
  NOT_FOUND: msg`This board is not one of your classes.`,
  SIGNED_OUT: msg`You have been signed out.`,
  CLIENT_TOO_OLD: msg`This page is out of date: reload it.`,
  ROOM_FULL: msg`The board is full: too many people are on it.`,
};
const CLOSED_TEXT = msg`The board is closed: reload the page to draw again.`;

function endText(reason: BoardEndReason | undefined): MessageDescriptor {
  return (reason && END_TEXTS[reason]) ?? CLOSED_TEXT;
}

/** A toast for each change the server refused (the board is set back to the server's). */
function useRefusalToasts(state: BoardState) {
  const { i18n } = useLingui();
  const refusal = state.lastRefusal;
  const shown = useRef<number | null>(refusal?.at ?? null);
  useEffect(() => {
    if (!refusal || shown.current === refusal.at) return;
    shown.current = refusal.at;
    // One refusal comes back once for each of the page's updates already on their way (the server
    // refuses them alike): one toast, replaced rather than stacked.
    toast.error(i18n._(refusalText(refusal.code)), { id: 'class-board-refusal' });
  }, [refusal, i18n]);
}

/**
 * What a screen reader hears of the board, politely and only when it matters: the connection lost
 * and back, the board closed, and this person given or no longer given the pen (not the pen they
 * open the board with). The status line's Saving… and Saved, and the people count, are only shown.
 */
function useBoardAnnouncement(state: BoardState) {
  const { t, i18n } = useLingui();
  // The live region's words are written into it, not rendered: a repeat is said again.
  const region = useRef<HTMLParagraphElement>(null);
  const seen = useRef<{ status: BoardState['status']; wasOffline: boolean; canDraw: boolean | null }>({
    status: state.status,
    wasOffline: false,
    canDraw: null,
  });
  const { status, endReason, hasSynced } = state;
  const canDraw = state.canDraw;
  useEffect(() => {
    const setText = (text: string) => {
      const node = region.current;
      if (node) node.textContent = text;
    };
    const before = seen.current;
    if (status !== before.status) {
      if (status === 'ended') setText(i18n._(endText(endReason)));
      else if (status === 'offline' && !before.wasOffline) {
        before.wasOffline = true;
        setText(t`Offline: reconnecting…`);
      } else if (status === 'synced' && before.wasOffline) {
        before.wasOffline = false;
        setText(t`The board is back online.`);
      }
      before.status = status;
    }
    if (status === 'ended' || !hasSynced) return;
    // The pen the board opened with is the page's own news: only a change after it is said.
    if (before.canDraw !== null && before.canDraw !== canDraw) {
      setText(
        canDraw ? t`You hold the pen now: you can draw.` : t`You no longer hold the pen: the board is read only.`,
      );
    }
    before.canDraw = canDraw;
  }, [status, endReason, hasSynced, canDraw, t, i18n]);
  return region;
}

/** Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z or Ctrl+Y undo and redo this person's own changes. */
function useUndoShortcuts(session: BoardSession, canDraw: boolean, board: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    if (!canDraw) return;
    const handleKey = (event: KeyboardEvent) => {
      const action = whiteboardShortcut(event, board.current);
      if (!action) return;
      event.preventDefault();
      if (action === 'undo') session.undo();
      else session.redo();
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, [session, canDraw, board]);
}
