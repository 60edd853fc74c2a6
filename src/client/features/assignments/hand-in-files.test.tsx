import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { callJson } from '../../../server/testing/server-process.ts';
import { patience } from '../../../server/testing/patience.ts';
import { SAMPLE_FILES } from '../../../server/testing/multipart.ts';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { classCodeOf, signInAs, signUpStudent, signUpTeacher } from '../../testing/server-actors.ts';
import { CommentThread } from './comment-thread.tsx';
import { HandInFiles, viewerOf } from './hand-in-files.tsx';

/** The hand-in's files and its private thread against the real server (decision 061), as the student. */

async function assignmentForNewStudent() {
  const teacher = await signUpTeacher();
  const className = `Files ${Math.random().toString(36).slice(2, 8)}`;
  const student = await signUpStudent({ classCode: await classCodeOf(className, teacher) });
  const classes = await callJson(location.origin, 'GET', '/api/classes', { token: teacher.token });
  const classId = (classes.body as { data: { _id: string; name: string }[] }).data.find(
    (entry) => entry.name === className,
  )!._id;
  const created = await callJson(location.origin, 'POST', '/api/assignments', {
    token: teacher.token,
    body: {
      classIds: [classId],
      title: 'Photo homework',
      points: 10,
      dueAt: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  expect(created.status).toBe(201);
  signInAs(student, 'student');
  return { teacher, student, assignmentId: (created.body as { data: { _id: string } }).data._id };
}

function renderWithQueries(ui: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderTranslated(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('a hand-in’s files', () => {
  it('uploads with progress, lists, opens an image in the page and removes it', async () => {
    const { assignmentId } = await assignmentForNewStudent();
    const versions: number[] = [];
    const user = userEvent.setup();
    renderWithQueries(<HandInFiles of={{ assignmentId }} editable onVersion={(version) => versions.push(version)} />);
    expect(await screen.findByText('No files.')).toBeInTheDocument();

    const seen: string[] = [];
    const observer = new MutationObserver(() => {
      const value = document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow');
      if (value != null && seen.at(-1) !== value) seen.push(value);
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    await user.upload(
      screen.getByLabelText('Add a file'),
      new File([SAMPLE_FILES.png()], 'photo.png', { type: 'image/png' }),
    );
    const view = await screen.findByRole('button', { name: /^View\s*photo\.png$/ }, { timeout: patience(5000) });
    observer.disconnect();
    expect(seen[0]).toBe('0');
    expect(versions).toEqual([1]);

    const row = within(view.closest('li')!);
    await user.click(row.getByRole('button', { name: /^View\s*photo\.png$/ }));
    expect(row.getByRole('img', { name: 'photo.png' })).toHaveAttribute(
      'src',
      expect.stringContaining('/api/hand-in-files/'),
    );
    expect(row.getByRole('link', { name: /^Download\s*photo\.png$/ })).toHaveAttribute('download', 'photo.png');

    await user.click(row.getByRole('button', { name: /^Remove\s*photo\.png$/ }));
    expect(await screen.findByText('No files.')).toBeInTheDocument();
    expect(versions).toEqual([1, 2]);
  });

  it('says at once when a file is over the limit, and sends nothing', async () => {
    const { assignmentId } = await assignmentForNewStudent();
    const user = userEvent.setup();
    renderWithQueries(<HandInFiles of={{ assignmentId }} editable uploadMaxBytes={1024} />);
    await screen.findByText('No files.');
    await user.upload(
      screen.getByLabelText('Add a file'),
      new File(['x'.repeat(2048)], 'big.txt', { type: 'text/plain' }),
    );
    expect(screen.getByText(/files up to 1 KB can be uploaded/)).toBeInTheDocument();
    expect(screen.getByLabelText('Add a file')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('No files.')).toBeInTheDocument();
  });

  it('shows each type in the browser’s own viewer, or downloads it', () => {
    expect(
      ['application/pdf', 'image/png', 'image/svg+xml', 'audio/mpeg', 'video/mp4', 'application/zip'].map((mimeType) =>
        viewerOf({ mimeType }),
      ),
    ).toEqual(['pdf', 'image', 'download', 'audio', 'video', 'download']);
  });
});

describe('the private thread', () => {
  it('posts a comment and lists it, oldest first', async () => {
    const { assignmentId } = await assignmentForNewStudent();
    const user = userEvent.setup();
    renderWithQueries(<CommentThread thread={{ assignmentId }} />);
    expect(await screen.findByText(/No comments yet/)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Add a private comment' }), 'May I hand in a photo?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    // (The textarea holds the text too: the list's item is what says it was sent.)
    const item = await screen.findByRole('listitem');
    expect(item).toHaveTextContent('May I hand in a photo?');
    expect(item).toHaveTextContent('You');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Add a private comment' })).toHaveValue(''));
  });
});
