import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight, Pencil, Plus, Trash2, type LucideIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { CLASS_BOARD_LIMITS } from '#shared/class-boards';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { formatNumber } from '../../lib/format.ts';
import type { BoardPage } from './board-model.ts';

const ICON_BUTTON =
  'inline-flex size-10 items-center justify-center rounded-lg border border-line-strong bg-surface text-fg hover:bg-surface-sunken aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

/** One of the page's icon-only buttons: its name is its tooltip and its label. */
function IconButton(props: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  isDisabled?: boolean;
  /** An icon that points back or forward: it turns in a right-to-left page. */
  isMirrored?: boolean;
  tone?: 'danger';
}) {
  const { label, icon: Icon } = props;
  return (
    <button
      type="button"
      className={props.tone === 'danger' ? `${ICON_BUTTON} text-danger` : ICON_BUTTON}
      title={label}
      aria-label={label}
      aria-disabled={props.isDisabled || undefined}
      onClick={props.onClick}
    >
      <Icon className={props.isMirrored ? 'size-4 rtl:-scale-x-100' : 'size-4'} aria-hidden="true" />
    </button>
  );
}

/**
 * The board's pages (issue 35): one button each, the page on show marked; teachers add a page,
 * and rename, move or delete the page on show (deleting asks first; their undo brings it back).
 * The pages are a list of buttons with `aria-current`, reached with Tab like the toolbar.
 */
export function PagesBar(props: {
  pages: readonly BoardPage[];
  currentId: string | null;
  onSelect: (pageId: string) => void;
  isTeacher: boolean;
  onAdd: () => void;
  onRename: (pageId: string, name: string) => void;
  onMove: (pageId: string, beforeId: string | null) => void;
  onDelete: (pageId: string) => void;
}) {
  const { pages, currentId } = props;
  const { t } = useLingui();
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);
  const index = pages.findIndex((page) => page.id === currentId);
  const current = index >= 0 ? pages[index] : undefined;
  const canAdd = pages.length < CLASS_BOARD_LIMITS.pagesMax;
  const pagesMax = formatNumber(CLASS_BOARD_LIMITS.pagesMax);

  // Moving a page before another: earlier is before the one before it; later is before the one two after.
  const moveEarlier = () => {
    if (current && index > 0) props.onMove(current.id, pages[index - 1]!.id);
  };
  const moveLater = () => {
    if (current && index < pages.length - 1) props.onMove(current.id, pages[index + 2]?.id ?? null);
  };

  return (
    <nav aria-label={t`Board pages`} className="flex flex-wrap items-center gap-2">
      {/* Its end fades out, over room left at its end: a page beyond it shows that the list
          scrolls, and the last shows whole once scrolled to (a focused one clears the fade). */}
      <ol className="flex max-w-full scroll-pe-10 gap-1.5 overflow-x-auto [mask-image:linear-gradient(to_right,#000_calc(100%-2.5rem),#0000)] pe-10 pb-1 rtl:[mask-image:linear-gradient(to_left,#000_calc(100%-2.5rem),#0000)]">
        {pages.map((page, position) => {
          const number = formatNumber(position + 1);
          const isCurrent = page.id === currentId;
          return (
            <li key={page.id} className="shrink-0">
              <button
                type="button"
                aria-current={isCurrent ? 'page' : undefined}
                onClick={() => props.onSelect(page.id)}
                className={`inline-flex h-10 max-w-48 items-center gap-1.5 rounded-lg border px-3 text-sm font-medium ${
                  isCurrent
                    ? 'border-brand-600 bg-brand-600 text-white'
                    : 'border-line-strong bg-surface text-fg hover:bg-surface-sunken'
                }`}
              >
                <span className="text-xs opacity-75" aria-hidden="true">
                  {number}
                </span>
                <span className="truncate">{page.name}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {props.isTeacher ? (
        <div role="group" aria-label={t`Page actions`} className="flex flex-wrap items-center gap-1.5">
          {/* On a phone an icon like the page's others, its words its name. */}
          <Button
            variant="secondary"
            className="max-sm:size-10 max-sm:px-0 max-sm:py-0"
            aria-disabled={!canAdd || undefined}
            title={canAdd ? undefined : t`A board has at most ${pagesMax} pages.`}
            onClick={() => {
              if (canAdd) props.onAdd();
            }}
          >
            <Plus className="size-4" aria-hidden="true" />
            <span className="max-sm:sr-only">
              <Trans>Add page</Trans>
            </span>
          </Button>
          {current ? (
            <>
              <IconButton label={t`Rename page`} icon={Pencil} onClick={() => setDialog('rename')} />
              <IconButton
                label={t`Move page earlier`}
                icon={ChevronLeft}
                isMirrored
                isDisabled={index <= 0}
                onClick={moveEarlier}
              />
              <IconButton
                label={t`Move page later`}
                icon={ChevronRight}
                isMirrored
                isDisabled={index >= pages.length - 1}
                onClick={moveLater}
              />
              <IconButton
                label={t`Delete page`}
                icon={Trash2}
                tone="danger"
                isDisabled={pages.length <= 1}
                onClick={() => {
                  if (pages.length > 1) setDialog('delete');
                }}
              />
            </>
          ) : null}
        </div>
      ) : null}
      {dialog === 'rename' && current ? (
        <RenameDialog
          name={current.name}
          onRename={(name) => props.onRename(current.id, name)}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === 'delete' && current ? (
        <DeletePageConfirmation
          name={current.name}
          onConfirm={() => props.onDelete(current.id)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </nav>
  );
}

function DeletePageConfirmation(props: { name: string; onConfirm(): void; onClose(): void }) {
  const { t } = useLingui();
  const name = props.name;
  return (
    <ConfirmDialog
      title={t`Delete the page “${name}”?`}
      description={t`The page and its drawing go for everyone on the board. Your Undo brings them back.`}
      confirmLabel={t`Delete page`}
      widthClassName="w-[min(26rem,calc(100%-2rem))]"
      onConfirm={props.onConfirm}
      onClose={props.onClose}
    />
  );
}

function RenameDialog(props: { name: string; onRename(name: string): void; onClose(): void }) {
  const { t } = useLingui();
  const [name, setName] = useState(props.name);
  const [error, setError] = useState<string | undefined>();
  return (
    <ModalDialog
      title={t`Rename page`}
      onClose={props.onClose}
      initialFocus='[name="pageName"]'
      widthClassName="w-[min(26rem,calc(100%-2rem))]"
    >
      {(close) => {
        const handleSubmit = (event: FormEvent) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (!trimmed) {
            setError(t`Give the page a name.`);
            return;
          }
          props.onRename(trimmed.slice(0, CLASS_BOARD_LIMITS.pageNameMax));
          close();
        };
        return (
          <form onSubmit={handleSubmit} className="mt-4 flex flex-col gap-4" noValidate>
            <TextField
              label={t`Page name`}
              name="pageName"
              value={name}
              maxLength={CLASS_BOARD_LIMITS.pageNameMax}
              error={error}
              onChange={(event) => setName(event.target.value)}
            />
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="secondary" onClick={close}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit">
                <Trans>Rename</Trans>
              </Button>
            </div>
          </form>
        );
      }}
    </ModalDialog>
  );
}
