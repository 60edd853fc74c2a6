import { useLingui } from '@lingui/react/macro';
import { useCallback } from 'react';
import toast from 'react-hot-toast/headless';
import { inviteLink } from './meeting-links.ts';

/** Copies the room's invite link; where the clipboard is not allowed, shows the link to copy by hand. */
export function useCopyInviteLink(roomId: string) {
  const { t } = useLingui();
  return useCallback(async () => {
    const link = inviteLink(window.location.origin, roomId);
    try {
      await navigator.clipboard.writeText(link);
      toast.success(t`Invite link copied`);
    } catch {
      toast(t`Copy this invite link: ${link}`, { duration: 15_000 });
    }
  }, [roomId, t]);
}
