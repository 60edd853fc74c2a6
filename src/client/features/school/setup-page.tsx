import { Trans, useLingui } from '@lingui/react/macro';
import { isLocale, SOURCE_LOCALE } from '#shared/locales';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useLoaderData, useNavigate, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import { checkSetupCode, fillDemoSchool, setupCodeBodySchema } from '#shared/contract/school-demo';
import { getSchool, setUpSchool } from '#shared/contract/school-setup';
import { DEMO_PASSWORD, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { schoolSetupSchema, type SchoolSetup, type SchoolStatus } from '#shared/school-setup';
import { LocaleOptions } from '../../components/language-switcher.tsx';
import { runtimeTimeZone } from '#shared/time-zones';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { dashboardPathFor, loginPathFor, saveSession } from '../../lib/session.ts';
import { AuthForm, AuthPanel } from '../../components/auth-form.tsx';
import { teacherAccountFields } from '../auth/teacher-fields.ts';

/**
 * /setup, the first run (issue 19): first the one-time set-up code from the server's log
 * (decision 050), then the school's name and its first teacher, the administrator, who is
 * signed in as a login would (the answer is a session). Once the school exists the screen says
 * so and leads to the login.
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
  const { t, i18n } = useLingui();
  const status = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  // The code the server accepted: the second step sends it with the school's form or the demo.
  const [setupCode, setSetupCode] = useState<string | null>(null);

  // A refusal is the form's toast: a wrong code, or a school set up meanwhile ("Log in instead").
  const handleCode = async (body: { setupCode: string }) => {
    await call(checkSetupCode, { body });
    setSetupCode(body.setupCode);
  };

  const handleSetUp = async (setup: SchoolSetup) => {
    try {
      const { data: token } = await call(setUpSchool, { body: setup });
      saveSession({ token, userType: 'teacher' });
      toast.success(t`Your school is ready`);
      await navigate(dashboardPathFor('teacher'), { replace: true });
    } catch (error) {
      // Someone was quicker: the screen turns into "already set up" under the failure's toast.
      if (error instanceof ApiError && error.code === 'SCHOOL_ALREADY_SET_UP') await revalidator.revalidate();
      throw error;
    }
  };

  // The first run's other choice (decision 041): the server seeds the demo while it has no school.
  // A plain handler, not useMutation: that hook was the page's only reason to download it (+1 kB).
  const [isFillingDemo, setFillingDemo] = useState(false);
  const handleFillDemo = async () => {
    setFillingDemo(true);
    try {
      await call(fillDemoSchool, { body: { setupCode: setupCode ?? '' } });
      const email = DEMO_TEACHER_EMAIL;
      const password = DEMO_PASSWORD;
      await navigate(loginPathFor('teacher'), {
        replace: true,
        state: {
          notice: t`The demo school is ready. Log in as ${email} with the password ${password}; the home page lists the others.`,
        },
      });
    } catch (error) {
      setFillingDemo(false);
      // Someone set the school up meanwhile: the screen turns into "already set up" under the toast.
      toast.error(error instanceof Error ? error.message : t`Something went wrong`, { id: 'fill-demo' });
      if (error instanceof ApiError && error.code === 'SCHOOL_ALREADY_SET_UP') await revalidator.revalidate();
    }
  };

  if (status?.isSetUp) {
    const schoolName = status.name;
    return (
      <AuthPanel title={t`Your school is set up`}>
        <PageTitle>{t`School set up`}</PageTitle>
        <p className="mt-2 text-muted">
          {schoolName ? (
            <Trans>
              <strong className="text-fg">
                <bdi>{schoolName}</bdi>
              </strong>{' '}
              already has its administrator. Teachers join with an invitation link from them.
            </Trans>
          ) : (
            <Trans>This school already has its administrator. Teachers join with an invitation link from them.</Trans>
          )}
        </p>
        <Link to={loginPathFor('teacher')} className={buttonVariants({ className: 'mt-6 w-full' })}>
          <Trans>Log in as a teacher</Trans>
        </Link>
      </AuthPanel>
    );
  }
  if (setupCode === null) {
    return (
      <>
        <AuthForm
          title={t`Set up your school`}
          intro={t({
            comment: 'npm start, journalctl and docker logs are commands: keep them as they are.',
            message:
              'First, the set-up code this server printed in its log: the terminal running npm start, or journalctl, docker logs.',
          })}
          schema={setupCodeBodySchema}
          fields={[{ name: 'setupCode', label: t`Set-up code`, autoComplete: 'off', isCode: true }]}
          submitLabel={t`Continue`}
          onSubmit={handleCode}
          footer={null}
        />
      </>
    );
  }
  return (
    <>
      <AuthForm
        title={t`Set up your school`}
        intro={t`Name your school and create the first teacher account: yours, as the school's administrator. You can then invite the other teachers.`}
        schema={schoolSetupSchema}
        // The school's time zone: the browser's (decision 062), changed later on the staff screen.
        hiddenValues={{ setupCode, timeZone: runtimeTimeZone() }}
        // The school's default language (issue 32): first the one this page is read in.
        leadingControls={(field) => (
          <Field
            id={undefined}
            error={field('defaultLocale').error}
            label={t`The school's language`}
            hint={t`StudyHall speaks it to everyone signed in who has not chosen a language in their account, and on the sign-in pages to browsers that ask for none of its languages.`}
            control={(attributes) => (
              <select
                {...attributes}
                name="defaultLocale"
                defaultValue={isLocale(i18n.locale) ? i18n.locale : SOURCE_LOCALE}
              >
                <LocaleOptions />
              </select>
            )}
          />
        )}
        fields={[
          { name: 'schoolName', label: t`School name`, autoComplete: 'organization' },
          ...teacherAccountFields(),
        ]}
        submitLabel={t`Set up the school`}
        onSubmit={handleSetUp}
        footer={
          <>
            <Trans>
              Only trying StudyHall? Fill this server with a demo school instead. Its passwords are public: never for a
              real school.
            </Trans>
            <Button
              variant="secondary"
              className="mt-3 w-full"
              disabled={isFillingDemo}
              onClick={() => void handleFillDemo()}
            >
              {isFillingDemo ? t`Filling the demo school (up to a minute)…` : t`Fill with a demo school`}
            </Button>
          </>
        }
      />
    </>
  );
}
