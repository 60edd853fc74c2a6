import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_MESSAGES, type CloseReason } from '#shared/meetings';
import { classifyMediaError, deviceProblemText, MediaDeviceError } from './local-media.ts';
import { closeReasonText } from './meeting-texts.ts';
import { initialsOf } from './participant-tile.tsx';
import { levelOf } from './speaking-detector.ts';

describe('levelOf', () => {
  it('is 0 for silence (every sample at the midpoint 128)', () => {
    expect(levelOf(new Uint8Array(1024).fill(128))).toBe(0);
  });

  it('is 0 for no samples', () => {
    expect(levelOf(new Uint8Array(0))).toBe(0);
  });

  it('is about 1 for a full-scale square wave', () => {
    const square = Uint8Array.from({ length: 1024 }, (_, index) => (index % 2 === 0 ? 0 : 255));
    const level = levelOf(square);
    expect(level).toBeGreaterThan(0.99);
    expect(level).toBeLessThanOrEqual(1);
    expect(level).toBeCloseTo(Math.sqrt((1 + (127 / 128) ** 2) / 2), 10);
  });

  it('is the RMS of the centred samples', () => {
    expect(levelOf(new Uint8Array(256).fill(0))).toBe(1);
    expect(levelOf(Uint8Array.from({ length: 256 }, (_, index) => (index % 2 === 0 ? 64 : 192)))).toBe(0.5);
    expect(levelOf(Uint8Array.from([128, 128, 128, 0]))).toBe(0.5);
  });

  it('grows with loudness', () => {
    const wave = (amplitude: number) =>
      Uint8Array.from({ length: 512 }, (_, index) => 128 + Math.round(amplitude * Math.sin(index / 8)));
    const quiet = levelOf(wave(4));
    const loud = levelOf(wave(100));
    expect(quiet).toBeGreaterThan(0);
    expect(quiet).toBeLessThan(0.05);
    expect(loud).toBeGreaterThan(quiet);
    expect(loud).toBeCloseTo(100 / 128 / Math.SQRT2, 1);
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('Ada King Byron Lovelace')).toBe('AL');
  });

  it('takes one letter of a single name', () => {
    expect(initialsOf('Ada')).toBe('A');
    expect(initialsOf('plato')).toBe('P');
  });

  it('ignores extra spaces', () => {
    expect(initialsOf('   ada    lovelace   ')).toBe('AL');
    expect(initialsOf('\tAda\nLovelace ')).toBe('AL');
    expect(initialsOf('Ada\u00a0Lovelace')).toBe('AL');
  });

  it('handles letters beyond Latin', () => {
    expect(initialsOf('Émile Zola')).toBe('ÉZ');
    expect(initialsOf('émile zola')).toBe('ÉZ');
    expect(initialsOf('Зоя Иванова')).toBe('ЗИ');
    expect(initialsOf('зоя иванова')).toBe('ЗИ');
    expect(initialsOf('Ελένη Παππά')).toBe('ΕΠ');
    expect(initialsOf('山田 太郎')).toBe('山太');
  });

  it('keeps a character outside the BMP whole', () => {
    expect(initialsOf('𝒜da Lovelace')).toBe('𝒜L');
    expect(initialsOf('😀')).toBe('😀');
  });

  it('is "?" for an empty name', () => {
    expect(initialsOf('')).toBe('?');
    expect(initialsOf('    ')).toBe('?');
  });
});

describe('classifyMediaError', () => {
  const domError = (name: string) => new DOMException('test', name);

  it('reads the DOMException names of getUserMedia', () => {
    expect(classifyMediaError(domError('NotAllowedError'))).toBe('denied');
    expect(classifyMediaError(domError('SecurityError'))).toBe('denied');
    expect(classifyMediaError(domError('NotFoundError'))).toBe('missing');
    expect(classifyMediaError(domError('OverconstrainedError'))).toBe('missing');
    expect(classifyMediaError(domError('NotReadableError'))).toBe('busy');
    expect(classifyMediaError(domError('AbortError'))).toBe('busy');
    expect(classifyMediaError(domError('InvalidStateError'))).toBe('failed');
    expect(classifyMediaError(domError('Error'))).toBe('failed');
  });

  it('takes a TypeError (no getUserMedia, insecure page) as unsupported', () => {
    expect(classifyMediaError(new TypeError('getUserMedia is not a function'))).toBe('unsupported');
  });

  it('reads the name of an Error too (older browsers, polyfills)', () => {
    const error = new Error('Permission denied');
    error.name = 'NotAllowedError';
    expect(classifyMediaError(error)).toBe('denied');
    const overconstrained = Object.assign(new Error('no such camera'), { name: 'OverconstrainedError' });
    expect(classifyMediaError(overconstrained)).toBe('missing');
  });

  it('takes anything else as failed', () => {
    expect(classifyMediaError(new Error('boom'))).toBe('failed');
    expect(classifyMediaError(new RangeError('boom'))).toBe('failed');
    expect(classifyMediaError({ name: 'NotAllowedError' })).toBe('failed');
    expect(classifyMediaError('NotAllowedError')).toBe('failed');
    expect(classifyMediaError(undefined)).toBe('failed');
    expect(classifyMediaError(null)).toBe('failed');
  });
});

describe('MediaDeviceError', () => {
  // The texts in the code's own English (no catalog loaded).
  beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

  it('is an Error that keeps the problem and the device', () => {
    const error = new MediaDeviceError('busy', 'camera');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('MediaDeviceError');
    expect(error.problem).toBe('busy');
    expect(error.device).toBe('camera');
  });

  it('keeps the problem and the device in its message, for logs', () => {
    expect(new MediaDeviceError('busy', 'camera').message).toBe('camera: busy');
  });

  it('says "it" of one device', () => {
    expect(deviceProblemText(new MediaDeviceError('denied', 'camera'))).toBe(
      'Your browser blocked the camera. Allow it in the site settings (the icon left of the address), or join with it off.',
    );
    expect(deviceProblemText(new MediaDeviceError('denied', 'microphone'))).toBe(
      'Your browser blocked the microphone. Allow it in the site settings (the icon left of the address), or join with it off.',
    );
    expect(deviceProblemText(new MediaDeviceError('missing', 'microphone'))).toBe(
      'No microphone was found on this device. You can join with it off.',
    );
    expect(deviceProblemText(new MediaDeviceError('busy', 'camera'))).toBe(
      'The camera is in use by another application. Close that application, or join with it off.',
    );
  });

  it('says "them" of the camera and microphone', () => {
    expect(deviceProblemText(new MediaDeviceError('denied', 'camera and microphone'))).toBe(
      'Your browser blocked the camera and microphone. Allow them in the site settings (the icon left of the address), or join with them off.',
    );
    expect(deviceProblemText(new MediaDeviceError('missing', 'camera and microphone'))).toBe(
      'No camera and microphone were found on this device. You can join with them off.',
    );
    expect(deviceProblemText(new MediaDeviceError('busy', 'camera and microphone'))).toBe(
      'The camera and microphone are in use by another application. Close that application, or join with them off.',
    );
  });

  it('explains an unsupported device and a failure', () => {
    expect(deviceProblemText(new MediaDeviceError('unsupported', 'camera'))).toBe(
      'This browser cannot use the camera here (it needs a secure https address).',
    );
    expect(deviceProblemText(new MediaDeviceError('unsupported', 'camera and microphone'))).toBe(
      'This browser cannot use the camera and microphone here (it needs a secure https address).',
    );
    expect(deviceProblemText(new MediaDeviceError('failed', 'microphone'))).toBe(
      'The microphone could not be started.',
    );
    expect(deviceProblemText(new MediaDeviceError('failed', 'camera and microphone'))).toBe(
      'The camera and microphone could not be started.',
    );
  });

  it('has its own words for the screen', () => {
    expect(deviceProblemText(new MediaDeviceError('denied', 'screen'))).toBe(
      'Screen sharing was cancelled or blocked.',
    );
    expect(deviceProblemText(new MediaDeviceError('unsupported', 'screen'))).toBe(
      'This browser cannot share the screen.',
    );
    expect(deviceProblemText(new MediaDeviceError('failed', 'screen'))).toBe('The screen could not be started.');
  });
});

describe('closeReasonText', () => {
  // The e2e tests read the server's CLOSE_MESSAGES on the page: the client's English keeps them.
  it('says in English what the server says for every close reason', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    for (const reason of Object.keys(CLOSE_MESSAGES) as CloseReason[]) {
      expect(closeReasonText(reason)).toBe(CLOSE_MESSAGES[reason]);
    }
  });
});
