import { Plural, useLingui } from '@lingui/react/macro';
import { Check, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { UserRole } from '#shared/constants';
import { TASK_LIMITS, taskEdits, type TaskEdit } from '#shared/tasks';
import { Button } from '../../components/ui/button.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { useTaskList } from './use-task-list.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

/** Focuses an element once React has drawn the list the server confirmed. */
const focusSoon = (id: string) => requestAnimationFrame(() => document.getElementById(id)?.focus());

/** The home screens' task list (SPEC §2): add, mark complete (one way), delete. */
export function TaskList({ role, ownerId }: { role: UserRole; ownerId: string }) {
  const { list, edit } = useTaskList(role, ownerId);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const tasks = list.data?.tasks ?? [];
  const maxTasks = TASK_LIMITS.perList;
  const isFull = tasks.length >= maxTasks;
  const { t } = useLingui();

  // One edit at a time. The buttons stay focusable (aria-disabled, not disabled) so focus
  // can be moved onto one of them while the list is still saving.
  const runEdit = (change: TaskEdit, focusIdAfter: string) => {
    if (edit.isPending) return;
    edit.mutate(change, { onSuccess: () => focusSoon(focusIdAfter) });
  };

  const handleAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) {
      setProblem(t`Task text is required`);
      return;
    }
    setProblem(undefined);
    // The text stays in the box until the server has the task.
    edit.mutate(taskEdits.add(trimmed), { onSuccess: () => setText('') });
  };

  return (
    <section aria-labelledby="tasks-heading" className={cn(cardVariants({ rounded: '2xl' }), 'p-5 sm:p-6')}>
      <h2 id="tasks-heading" className="text-xl font-bold text-fg">
        {t`Tasks`}
      </h2>
      <form onSubmit={handleAdd} noValidate className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex flex-1 flex-col gap-1">
          <label htmlFor="new-task" className="sr-only">
            {t`New task`}
          </label>
          <input
            id="new-task"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t`Add a task…`}
            required
            maxLength={TASK_LIMITS.text}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'new-task-error' : undefined}
            className={`rounded-lg border bg-surface px-3 py-2.5 text-base text-fg shadow-sm outline-none focus:ring-2 focus:ring-brand-500 ${
              problem ? 'border-danger' : 'border-line-strong'
            }`}
          />
          {problem ? (
            <p id="new-task-error" className="text-sm text-danger">
              {problem}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={edit.isPending || isFull || list.isPending}>
          <Plus className="size-4" aria-hidden="true" />
          {t`Add task`}
        </Button>
      </form>
      {isFull ? (
        <p className="mt-2 text-sm text-muted">
          <Plural value={maxTasks} one="A list holds at most # task." other="A list holds at most # tasks." />
        </p>
      ) : null}

      {list.isPending ? (
        <LoadingStatus className="mt-4">{t`Loading your tasks…`}</LoadingStatus>
      ) : tasks.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-line-strong p-5 text-center text-muted">
          {t`There are no tasks to complete`}
        </p>
      ) : (
        <ul className="mt-4 flex flex-col divide-y divide-line" aria-busy={edit.isPending}>
          {tasks.map((task) => (
            <li key={task.id} className="flex flex-wrap items-center gap-3 py-3">
              <span
                className={`min-w-0 flex-1 wrap-anywhere ${task.isCompleted ? 'text-muted line-through' : 'text-fg'}`}
              >
                {task.text}
                {task.isCompleted ? <span className="sr-only"> {t`(completed)`}</span> : null}
              </span>
              {task.isCompleted ? null : (
                <Button
                  variant="secondary"
                  size="compact"
                  // The button goes away: keyboard focus moves to the task's Delete button.
                  onClick={() => runEdit(taskEdits.complete(task.id), `delete-task-${task.id}`)}
                  aria-disabled={edit.isPending}
                >
                  <Check className="size-4" aria-hidden="true" />
                  {t`Mark complete`}
                  <span className="sr-only">: {task.text}</span>
                </Button>
              )}
              <Button
                variant="danger-ghost"
                size="compact"
                id={`delete-task-${task.id}`}
                onClick={() => runEdit(taskEdits.remove(task.id), 'new-task')}
                aria-disabled={edit.isPending}
              >
                <Trash2 className="size-4" aria-hidden="true" />
                {t`Delete`}
                <span className="sr-only">: {task.text}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
