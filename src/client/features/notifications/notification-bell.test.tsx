import type { Messages } from '@lingui/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { addQuiz, classCodeOf, signInAs, signUpStudent, signUpTeacher } from '../../testing/server-actors.ts';
import { NotificationBell } from './notification-bell.tsx';

/** The bell against the real server (decision 059): a student of a class told of a new quiz. */

const catalog = async (locale: string) =>
  ((await import(`../../locales/${locale}/messages.po`)) as { messages: Messages }).messages as Record<string, string>;

/** A student of a fresh class of a fresh teacher, signed in here, and the teacher. */
async function studentOfNewClass() {
  const teacher = await signUpTeacher();
  const className = `Bell ${Math.random().toString(36).slice(2, 8)}`;
  const student = await signUpStudent({ classCode: await classCodeOf(className, teacher) });
  signInAs(student, 'student');
  return { teacher, className };
}

function renderBell(options: { locale?: string; messages?: Record<string, string> } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderTranslated(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBell dashboardPath="/dashboard/student" />
        <button type="button">Elsewhere</button>
      </MemoryRouter>
    </QueryClientProvider>,
    options,
  );
}

describe('the notification bell', () => {
  it('counts, lists on open, marks read, and closes by Escape back onto the bell', async () => {
    const { teacher, className } = await studentOfNewClass();
    const user = userEvent.setup();
    const before = renderBell();
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    before.unmount();

    const quiz = await addQuiz(teacher, { class: className, title: 'Bell fractions' });
    // A new mount reads the count afresh (as the poll's next turn would).
    renderBell();
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('1');

    await user.click(bell);
    const panel = within(await screen.findByRole('dialog', { name: 'Notifications' }));
    const link = await panel.findByRole('link', { name: new RegExp(`New quiz Bell fractions in ${className}`) });
    expect(link).toHaveAttribute('href', `/dashboard/student/quiz/${quiz._id}`);
    expect(link).toHaveTextContent('New:');
    // Read on open: the count is gone.
    await waitFor(() => expect(bell).toHaveAccessibleName('Notifications'));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bell).toHaveFocus();
  });

  it('says there is nothing new, and words the count in Spanish and Arabic', async () => {
    const { teacher, className } = await studentOfNewClass();
    const user = userEvent.setup();
    const first = renderBell();
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('Nothing new. What changes for you will show here.')).toBeInTheDocument();
    first.unmount();

    await addQuiz(teacher, { class: className });
    await addQuiz(teacher, { class: className });
    const spanish = renderBell({ locale: 'es', messages: await catalog('es') });
    expect(await screen.findByRole('button', { name: 'Notificaciones, 2 sin leer' })).toBeInTheDocument();
    spanish.unmount();
    renderBell({ locale: 'ar', messages: await catalog('ar') });
    // The badge shows the digit, so the name says it too (axe: label-content-name-mismatch).
    expect(await screen.findByRole('button', { name: 'الإشعارات، 2 غير مقروءين' })).toBeInTheDocument();
  });
});
