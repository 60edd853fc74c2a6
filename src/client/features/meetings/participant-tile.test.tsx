import type { Messages } from '@lingui/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { ParticipantTile } from './participant-tile.tsx';

/**
 * A locale's real catalog, compiled as the build compiles it. renderTranslated types its messages
 * as strings; a compiled catalog holds compiled messages too, which loadAndActivate takes.
 */
const catalog = async (locale: string) =>
  ((await import(`../../locales/${locale}/messages.po`)) as { messages: Messages }).messages as Record<string, string>;

const tile = (
  <ParticipantTile
    name="Ana Ruiz"
    isLocal
    role="teacher"
    video={{ track: null }}
    isCameraOff
    isMicOff
    isSpeaking={false}
    link="failed"
  />
);

describe('ParticipantTile', () => {
  it('words its marks in English', () => {
    renderTranslated(tile);
    expect(screen.getByRole('group', { name: 'Ana Ruiz (you)' })).toBeVisible();
    expect(screen.getByText('Camera off')).toBeVisible();
    expect(screen.getByText('Microphone off')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Connection problem. Trying again…');
  });

  it('words them in Spanish, and the name stays whole in Arabic', async () => {
    const { unmount } = renderTranslated(tile, { locale: 'es', messages: await catalog('es') });
    expect(screen.getByRole('group', { name: 'Ana Ruiz (tú)' })).toBeVisible();
    expect(screen.getByText('Cámara apagada')).toBeVisible();
    expect(screen.getByText('Docente')).toBeVisible();
    unmount();

    renderTranslated(tile, { locale: 'ar', messages: await catalog('ar') });
    expect(screen.getByRole('group', { name: '\u2068Ana Ruiz\u2069 (أنت)' })).toBeVisible();
    expect(screen.getByText('الكاميرا متوقفة')).toBeVisible();
  });
});
