import type { Colleague, Invitation, InvitationState, StaffMember } from '#shared/school';
import type { TeacherInvitationRow, TeacherRow } from '../../db/schema.ts';
import { presentTeacher } from '../accounts/presenters.ts';

/** What the invitation is now: a revocation or a use is final; otherwise its age decides. */
export function invitationState(invitation: TeacherInvitationRow, now: Date): InvitationState {
  if (invitation.revokedAt) return 'revoked';
  if (invitation.usedAt) return 'used';
  return invitation.expiresAt <= now ? 'expired' : 'pending';
}

/** An invitation as the administrator's list shows it: never its code (only a hash is kept). */
export function presentInvitation(
  invitation: TeacherInvitationRow,
  usedBy: { id: string; name: string } | null,
  now: Date,
): Invitation {
  return {
    _id: invitation.id,
    note: invitation.note,
    state: invitationState(invitation, now),
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
    usedBy: usedBy ? { _id: usedBy.id, name: usedBy.name } : null,
  };
}

/** A teacher of the staff list: an explicit list of fields, never a hash. */
export function presentStaffMember(teacher: TeacherRow): StaffMember {
  // A colleague's language choice is theirs: the staff screen does not show it.
  const { locale: _ownChoice, ...profile } = presentTeacher(teacher);
  return {
    ...profile,
    isActive: teacher.deactivatedAt === null,
    createdAt: teacher.createdAt.toISOString(),
  };
}

/** A colleague as any teacher sees them: the name only (no email, no role). */
export const presentColleague = (teacher: { id: string; name: string }): Colleague => ({
  _id: teacher.id,
  name: teacher.name,
});
