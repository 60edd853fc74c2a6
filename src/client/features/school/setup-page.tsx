import toast from 'react-hot-toast/headless';
import { Link, useLoaderData, useNavigate, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import { getSchool, setUpSchool } from '#shared/contract/school-setup';
import { schoolSetupSchema, type SchoolSetup, type SchoolStatus } from '#shared/school-setup';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { dashboardPathFor, loginPathFor, saveSession } from '../../lib/session.ts';
import { AuthForm, AuthPanel } from '../auth/auth-form.tsx';
import { TEACHER_ACCOUNT_FIELDS } from '../auth/teacher-fields.ts';

/**
 * /setup, the first run (issue 19): the school's name and its first teacher, the
 * administrator, who is signed in as a login would (the answer is a session). Once the school
 * exists the screen says so and leads to the login.
 */
/** Whether the school is set up, before the page shows; unknown (offline) shows the form, the server decides. */
export async function loader({ request }: LoaderFunctionArgs): Promise<SchoolStatus | null> {
  try {
    return (await call(getSchool, {}, { signal: request.signal })).data;
  } catch {
    return null;
  }
}

export function Component() {
  const status = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const navigate = useNavigate();

  const handleSetUp = async (setup: SchoolSetup) => {
    try {
      const { message, data: token } = await call(setUpSchool, { body: setup });
      saveSession({ token, userType: 'teacher' });
      toast.success(message);
      await navigate(dashboardPathFor('teacher'), { replace: true });
    } catch (error) {
      // Someone was quicker: the screen turns into "already set up" under the failure's toast.
      if (error instanceof ApiError && error.code === 'SCHOOL_ALREADY_SET_UP') await revalidator.revalidate();
      throw error;
    }
  };

  if (status?.isSetUp) {
    return (
      <AuthPanel title="Your school is set up">
        <PageTitle>School set up</PageTitle>
        <p className="mt-2 text-muted">
          {status.name ? <strong className="text-fg">{status.name}</strong> : 'This school'} already has its
          administrator. Teachers join with an invitation link from them.
        </p>
        <Link to={loginPathFor('teacher')} className={buttonVariants({ className: 'mt-6 w-full' })}>
          Log in as a teacher
        </Link>
      </AuthPanel>
    );
  }
  return (
    <>
      <PageTitle>Set up your school</PageTitle>
      <AuthForm
        title="Set up your school"
        intro="Name your school and create the first teacher account: yours, as the school's administrator. You can then invite the other teachers."
        schema={schoolSetupSchema}
        fields={[{ name: 'schoolName', label: 'School name', autoComplete: 'organization' }, ...TEACHER_ACCOUNT_FIELDS]}
        submitLabel="Set up the school"
        onSubmit={handleSetUp}
        footer={null}
      />
    </>
  );
}
