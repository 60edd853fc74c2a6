import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { createClass, openMeetingRoom, signInAs, signUpStudent, signUpTeacher } from '../../testing/server-actors.ts';
import { meetingQueries } from '../meetings/meetings-api.ts';
import { MeetingBoardLink } from './meeting-board-link.tsx';

/**
 * "Open the class board" in a meeting room's side panel (issue 35 point 1), against the real
 * server: the room's class found in the caller's rooms, the board of that class under the
 * caller's own dashboard, in a new tab (the meeting goes on); nothing for a room not listed.
 */
async function panelOf(path: string) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The rooms read before the panel shows: a room not among them is then answered at once.
  await queryClient.fetchQuery(meetingQueries.rooms());
  return renderTranslated(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/dashboard/:role/meet/:roomID" element={<MeetingBoardLink />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the meeting panel’s link to the class board', () => {
  it('opens the room’s class board in a new tab, under each role’s dashboard', async () => {
    const teacher = await signUpTeacher();
    const physics = await createClass(teacher);
    const room = await openMeetingRoom(teacher, physics._id);

    signInAs(teacher, 'teacher');
    await panelOf(`/dashboard/teacher/meet/${room.roomId}`);
    // jsdom's accessible names drop the space before the hidden note; Chromium's keep it.
    const link = await screen.findByRole('link', { name: /^Open the class board ?\(opens in a new tab\)$/ });
    expect(link).toHaveAttribute('href', `/dashboard/teacher/classes/${physics._id}/board`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener');
  });

  it('gives a student their own dashboard’s board, and nothing for a room not among theirs', async () => {
    const teacher = await signUpTeacher();
    const mine = await createClass(teacher);
    const other = await createClass(teacher);
    const room = await openMeetingRoom(teacher, mine._id);
    const foreign = await openMeetingRoom(teacher, other._id);
    signInAs(await signUpStudent({ classCode: mine.joinCode! }), 'student');

    const own = await panelOf(`/dashboard/student/meet/${room.roomId}`);
    const link = await screen.findByRole('link', { name: /Open the class board/ });
    expect(link).toHaveAttribute('href', `/dashboard/student/classes/${mine._id}/board`);
    own.unmount();

    await panelOf(`/dashboard/student/meet/${foreign.roomId}`);
    expect(screen.queryByRole('link', { name: /Open the class board/ })).not.toBeInTheDocument();
  });
});
