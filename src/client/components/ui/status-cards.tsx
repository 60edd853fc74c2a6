import { Trans } from '@lingui/react/macro';
import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import { Card } from './card.tsx';

/** "Nothing here": a dashed card with a title, an optional hint and icon. */
export function EmptyState({
  title,
  hint,
  icon,
  padding,
  className,
}: {
  title: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  /** Given, the card is as padded and aligned as its `className` says (a line in a list). */
  padding?: 'sm';
  className?: string;
}) {
  return (
    <Card tone="empty" padding={padding} className={className}>
      {icon}
      <p className="font-semibold text-fg">{title}</p>
      {hint ? <p className="mt-1 text-sm">{hint}</p> : null}
    </Card>
  );
}

/** Something that could not be loaded at all: what, the error's words, and a retry when it may help. */
export function LoadFailure({
  title,
  message,
  onRetry,
  className,
}: {
  title: ReactNode;
  message: ReactNode;
  onRetry?: (() => void) | undefined;
  className?: string;
}) {
  return (
    <Card tone="danger" role="alert" className={className}>
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">{message}</p>
      {onRetry ? (
        <Button variant="secondary" className="mt-4" onClick={onRetry}>
          <RotateCw className="size-4" aria-hidden="true" />
          <Trans>Try again</Trans>
        </Button>
      ) : null}
    </Card>
  );
}
