import { useLingui } from '@lingui/react/macro';
import { LogIn } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { LIVE_GAME_LIMITS } from '#shared/live-game-basics';
import { Button } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { codeInputProps, TextField } from '../../components/ui/field.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { ApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatNumber } from '../../lib/format.ts';
import { LiveGameBanners, playerPath } from './live-game-banner.tsx';
import { findGameByPin } from './live-joining-api.ts';

const PIN_PATTERN = new RegExp(`^\\d{${LIVE_GAME_LIMITS.pinLength}}$`);

/**
 * /dashboard/student/live (issue 34): a student types the PIN the projector shows and plays. The
 * short address /live?pin=… (its QR code) lands here with the PIN typed in, and joins at once.
 */
export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-6">
      <PageTitle>{t`Join a live game`}</PageTitle>
      <PageHeader title={t`Join a live game`} description={t`Type the game PIN your teacher shows.`} />
      <PinForm
        initialPin={params.get('pin') ?? ''}
        findGame={findGameByPin}
        onFound={(gameId) => void navigate(playerPath(gameId))}
      />
      <LiveGameBanners />
    </div>
  );
}

/** The PIN form: the PIN checked here, then `findGame`; a PIN given in the address is tried at once. */
export function PinForm({
  initialPin,
  findGame,
  onFound,
}: {
  initialPin: string;
  findGame(pin: string): Promise<{ _id: string }>;
  onFound(gameId: string): void;
}) {
  const { t } = useLingui();
  const [pin, setPin] = useState(initialPin.trim());
  const [error, setError] = useState<string | undefined>();
  const [isFinding, setIsFinding] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusPin = () => formRef.current?.querySelector('input')?.focus();
  const digits = formatNumber(LIVE_GAME_LIMITS.pinLength);

  const join = async (typed: string) => {
    const candidate = typed.replace(/\s+/g, '');
    if (!PIN_PATTERN.test(candidate)) {
      setError(candidate ? t`A game PIN is ${digits} digits.` : t`Type the game PIN.`);
      focusPin();
      return;
    }
    setError(undefined);
    setIsFinding(true);
    try {
      onFound((await findGame(candidate))._id);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'NOT_FOUND'
          ? t`No game of your classes has this PIN. Check it and try again.`
          : failure instanceof Error
            ? failure.message
            : t`Could not join the game. Try again.`,
      );
      setIsFinding(false);
      focusPin();
    }
  };

  // The QR code's PIN: joined once, as if typed and sent.
  const triedInitial = useRef(false);
  useEffect(() => {
    if (triedInitial.current || !initialPin) return;
    triedInitial.current = true;
    void join(initialPin);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isFinding) void join(pin);
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} className={cn(cardVariants(), 'flex flex-col gap-4 p-5')}>
      <TextField
        label={t`Game PIN`}
        name="pin"
        value={pin}
        onChange={(event) => setPin(event.target.value)}
        error={error}
        inputMode="numeric"
        autoComplete="off"
        maxLength={LIVE_GAME_LIMITS.pinLength + 2}
        {...codeInputProps}
        className="[&_input]:text-center [&_input]:font-mono [&_input]:text-2xl [&_input]:tracking-[0.3em]"
        required
      />
      <Button type="submit" disabled={isFinding} size="custom" className="min-h-12 px-4 py-2.5 text-base">
        <LogIn className="size-5 rtl:-scale-x-100" aria-hidden="true" />
        {isFinding ? t`Joining…` : t`Join`}
      </Button>
    </form>
  );
}
