import type { ErrorCode } from '#shared/error-codes';
import { conflict } from '../errors.ts';
import { violatedUniqueConstraint } from './errors.ts';

// Every feature that writes an account's identity (sign-up, invitations, a teacher editing a
// student) turns its unique-index violations into the same 409, so the rule lives here, below
// the features, and none of them imports another for it (issue 30 point 11).

// Identities are unique by their keys (decision 024): another spelling of a taken one is taken.
const DUPLICATES: Record<string, { code: ErrorCode; field: string; message: string }> = {
  teachers_email_key_unique: {
    code: 'EMAIL_TAKEN',
    field: 'email',
    message: 'A teacher with this email already exists',
  },
  students_email_key_unique: {
    code: 'EMAIL_TAKEN',
    field: 'email',
    message: 'A student with this email already exists',
  },
  students_roll_number_key_unique: {
    code: 'ROLL_NUMBER_TAKEN',
    field: 'rollNumber',
    message: 'This account username is already taken',
  },
};

/** Runs an insert (or an update of identities), turning a unique-index violation into a 409 a person understands. */
export async function insertUnique<T>(insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    const constraint = violatedUniqueConstraint(error);
    if (constraint === undefined) throw error;
    const duplicate = DUPLICATES[constraint];
    throw duplicate
      ? conflict(duplicate.code, duplicate.message, { field: duplicate.field, code: 'TAKEN' })
      : conflict('ACCOUNT_EXISTS', 'This account already exists');
  }
}
