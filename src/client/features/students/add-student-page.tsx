import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import toast from 'react-hot-toast/headless';
import { Link, useNavigate } from 'react-router';
import { studentRegistrationSchema } from '#shared/accounts';
import { buttonVariants } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { addStudent } from '#shared/contract/accounts';
import { call } from '../../lib/api.ts';
import { AccountForm } from '../auth/auth-form.tsx';
import { studentAccountFields } from '../auth/student-account-fields.ts';
import { studentQueries, useClasses } from './students-queries.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const CLASS_SUGGESTIONS_ID = 'known-classes';
const STUDENTS_PATH = '/dashboard/teacher/students';

const ADD_STUDENT_FIELDS = studentAccountFields({
  isForSomeoneElse: true,
  classSuggestionsId: CLASS_SUGGESTIONS_ID,
});

/** /dashboard/teacher/students/add (decision 007): a teacher creates a student account. */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const classes = useClasses();

  return (
    // Bottom room lets the buttons scroll clear of the toasts.
    <div className="mx-auto w-full max-w-3xl pb-16">
      <PageTitle>Add student</PageTitle>
      <Link
        to={STUDENTS_PATH}
        className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-brand-700 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to students
      </Link>
      <PageHeader
        className="mt-3"
        title="Add a student"
        description="Creates the student’s account. Every field is required; the student logs in with the account username and password you set."
      />
      <div className={cn(cardVariants(), 'mt-6 rounded-2xl p-5 sm:p-8')}>
        <AccountForm
          schema={studentRegistrationSchema}
          fields={ADD_STUDENT_FIELDS}
          submitLabel="Add student"
          className="grid gap-x-6 gap-y-4 sm:grid-cols-2"
          submitClassName="min-w-36"
          actions={
            <Link to={STUDENTS_PATH} className={buttonVariants({ variant: 'ghost' })}>
              Cancel
            </Link>
          }
          onSubmit={async (values) => {
            const { message } = await call(addStudent, { body: values });
            await queryClient.invalidateQueries({ queryKey: studentQueries.all });
            toast.success(message);
            // Back to the list the new student is on (issue 18 overrides SPEC §2's /dashboard/teacher).
            await navigate(STUDENTS_PATH);
          }}
        />
        <datalist id={CLASS_SUGGESTIONS_ID}>
          {(classes.data ?? []).map((className) => (
            <option key={className} value={className} />
          ))}
        </datalist>
      </div>
    </div>
  );
}
