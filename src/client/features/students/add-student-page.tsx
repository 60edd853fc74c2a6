import { t as translate } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast/headless';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { studentAccountFields as accountFieldSchemas } from '#shared/accounts';
import { addClassStudent } from '#shared/contract/classes';
import { bodyObject } from '#shared/fields';
import { buttonVariants } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { call } from '../../lib/api.ts';
import { AccountForm } from '../../components/auth-form.tsx';
import { studentAccountFields } from '../auth/student-account-fields.ts';
import { ClassPicker } from '../../components/class-picker.tsx';
import { studentQueries } from './students-queries.ts';
import { myClassesQuery } from '../classes/my-classes-query.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';
import { BackLink } from '../../components/ui/back-link.tsx';

const STUDENTS_PATH = '/dashboard/teacher/students';

// Called when shown, not when the module loads: the labels are worded in the active locale (decision 054).
const addStudentFields = () => studentAccountFields({ isForSomeoneElse: true });

/** The form: the class picked (it goes in the address) and the account's fields (the body). */
const addStudentFormSchema = bodyObject({
  ...accountFieldSchemas,
  // Worded as the problem is found, in the active locale (decision 054).
  classId: z
    .string({ error: () => translate`Choose one of your classes` })
    .check(z.minLength(1, { error: () => translate`Choose one of your classes` })),
});

/**
 * /dashboard/teacher/students/add (decisions 007, 031): a teacher creates a student account in
 * one of their active classes (`addClassStudent`).
 */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useLingui();

  return (
    // Bottom room lets the buttons scroll clear of the toasts.
    <div className="mx-auto w-full max-w-3xl pb-16">
      <PageTitle>{t`Add student`}</PageTitle>
      <BackLink to={STUDENTS_PATH}>{t`Back to students`}</BackLink>
      <PageHeader
        className="mt-3"
        title={t`Add a student`}
        description={t`Creates the student’s account in one of your classes. Every field is required; the student logs in with the account username and password you set.`}
      />
      <div className={cn(cardVariants({ rounded: '2xl' }), 'mt-6 p-5 sm:p-8')}>
        <AccountForm
          schema={addStudentFormSchema}
          fields={addStudentFields()}
          leadingControls={(field) => <ClassPicker {...field('classId')} className="col-span-full" />}
          submitLabel={t`Add student`}
          className="grid gap-x-6 gap-y-4 sm:grid-cols-2"
          submitClassName="min-w-36"
          actions={
            <Link to={STUDENTS_PATH} className={buttonVariants({ variant: 'ghost' })}>
              {t`Cancel`}
            </Link>
          }
          onSubmit={async (values) => {
            const { classId, ...account } = values;
            const { data } = await call(addClassStudent, { params: { id: classId }, body: account });
            const studentName = data.name;
            const className = queryClient
              .getQueryData(myClassesQuery().queryKey)
              ?.find((taught) => taught._id === classId)?.name;
            await queryClient.invalidateQueries({ queryKey: studentQueries.all });
            toast.success(
              className ? t`Student ${studentName} added to ${className}` : t`Student ${studentName} added`,
            );
            // Back to the list the new student is on (issue 18 overrides SPEC §2's /dashboard/teacher).
            await navigate(STUDENTS_PATH);
          }}
        />
      </div>
    </div>
  );
}
