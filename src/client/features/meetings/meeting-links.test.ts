import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  emeetPath,
  inviteLink,
  isUsableToken,
  meetPath,
  readMeetingArrival,
  readTokenClaims,
  roomIdFromInput,
} from './meeting-links.ts';

const SECRET = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hs256');
const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const NOW_SECONDS = NOW / 1000;

/** A signed meeting token, shaped as the server mints them. */
async function signToken(claims: { sub?: string; room?: string; exp?: number; name?: string }) {
  const jwt = new SignJWT({
    role: 'student',
    name: claims.name ?? 'Ada Lovelace',
    ...(claims.room === undefined ? {} : { room: claims.room }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(NOW_SECONDS - 60);
  if (claims.sub !== undefined) jwt.setSubject(claims.sub);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(SECRET);
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT-shaped token built by hand, for claims SignJWT would not produce. */
const handMadeToken = (payload: unknown) =>
  `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload)}.c2lnbmF0dXJl`;

describe('emeetPath', () => {
  it('is the room-ID entry screen of the role', () => {
    expect(emeetPath('teacher')).toBe('/dashboard/teacher/emeet');
    expect(emeetPath('student')).toBe('/dashboard/student/emeet');
  });
});

describe('meetPath', () => {
  it('puts the token, the room, the camera and the microphone in the query', () => {
    expect(
      meetPath('teacher', 'abcd-efgh-ijkl', { token: 'aaa.bbb.ccc', isCameraWanted: true, isMicWanted: false }),
    ).toBe(
      '/dashboard/teacher/meet/abcd-efgh-ijkl?token=aaa.bbb.ccc&meetingId=abcd-efgh-ijkl&webcamEnabled=true&micEnabled=false',
    );
  });

  it('leaves the token out when there is none', () => {
    expect(meetPath('student', 'room_42x', { isCameraWanted: false, isMicWanted: true })).toBe(
      '/dashboard/student/meet/room_42x?meetingId=room_42x&webcamEnabled=false&micEnabled=true',
    );
    expect(meetPath('student', 'room_42x', { token: undefined, isCameraWanted: false, isMicWanted: false })).toBe(
      '/dashboard/student/meet/room_42x?meetingId=room_42x&webcamEnabled=false&micEnabled=false',
    );
  });

  it('leaves an empty token out', () => {
    expect(meetPath('student', 'room_42x', { token: '', isCameraWanted: true, isMicWanted: true })).toBe(
      '/dashboard/student/meet/room_42x?meetingId=room_42x&webcamEnabled=true&micEnabled=true',
    );
  });

  it('encodes the room ID in the path and in the query', () => {
    expect(meetPath('student', 'a b/c?d', { isCameraWanted: true, isMicWanted: true })).toBe(
      '/dashboard/student/meet/a%20b%2Fc%3Fd?meetingId=a+b%2Fc%3Fd&webcamEnabled=true&micEnabled=true',
    );
  });

  it('is read back by readMeetingArrival', () => {
    const arrival = { token: 'h.p.s', isCameraWanted: false, isMicWanted: true };
    const url = new URL(meetPath('teacher', 'abcdef', arrival), 'https://studyhall.example');
    expect(readMeetingArrival(url.searchParams)).toEqual(arrival);
    expect(url.searchParams.get('meetingId')).toBe('abcdef');
  });
});

describe('readMeetingArrival', () => {
  it('takes camera and microphone as on when the address does not say', () => {
    expect(readMeetingArrival(new URLSearchParams())).toEqual({
      token: undefined,
      isCameraWanted: true,
      isMicWanted: true,
    });
  });

  it('turns a device off only for exactly "false"', () => {
    expect(readMeetingArrival(new URLSearchParams('webcamEnabled=false&micEnabled=false'))).toEqual({
      token: undefined,
      isCameraWanted: false,
      isMicWanted: false,
    });
    expect(readMeetingArrival(new URLSearchParams('webcamEnabled=false&micEnabled=true'))).toMatchObject({
      isCameraWanted: false,
      isMicWanted: true,
    });
    for (const value of ['true', '0', 'no', 'FALSE', 'False', '', 'off']) {
      const arrival = readMeetingArrival(new URLSearchParams({ webcamEnabled: value, micEnabled: value }));
      expect(arrival, value).toMatchObject({ isCameraWanted: true, isMicWanted: true });
    }
  });

  it('reads the token', () => {
    expect(readMeetingArrival(new URLSearchParams('token=x.y.z&webcamEnabled=true')).token).toBe('x.y.z');
  });
});

describe('inviteLink', () => {
  it('leads students to the room, camera and microphone on, without a token', () => {
    const link = inviteLink('https://studyhall.example', 'abcd-efgh-ijkl-mnop-qrst');
    expect(link).toBe(
      'https://studyhall.example/dashboard/student/meet/abcd-efgh-ijkl-mnop-qrst?meetingId=abcd-efgh-ijkl-mnop-qrst&webcamEnabled=true&micEnabled=true',
    );
    expect(new URL(link).searchParams.has('token')).toBe(false);
  });

  it('is understood by roomIdFromInput', () => {
    expect(roomIdFromInput(inviteLink('http://localhost:5173', 'Room_2025-x'))).toBe('Room_2025-x');
  });
});

describe('roomIdFromInput', () => {
  it('takes a bare room ID, without the spaces around it', () => {
    expect(roomIdFromInput('abcd-efgh-ijkl')).toBe('abcd-efgh-ijkl');
    expect(roomIdFromInput('  Room_42x \n')).toBe('Room_42x');
    expect(roomIdFromInput('\tabcdef\t')).toBe('abcdef');
  });

  it('takes 6 to 64 characters', () => {
    expect(roomIdFromInput('abcdef')).toBe('abcdef');
    expect(roomIdFromInput('abcde')).toBeUndefined();
    expect(roomIdFromInput('a'.repeat(64))).toBe('a'.repeat(64));
    expect(roomIdFromInput('a'.repeat(65))).toBeUndefined();
  });

  it('refuses empty input and characters other than letters, digits, - and _', () => {
    expect(roomIdFromInput('')).toBeUndefined();
    expect(roomIdFromInput('      ')).toBeUndefined();
    expect(roomIdFromInput('abc def')).toBeUndefined();
    expect(roomIdFromInput('abcdef!')).toBeUndefined();
    expect(roomIdFromInput('abc.def')).toBeUndefined();
    expect(roomIdFromInput('abc/def')).toBeUndefined();
    expect(roomIdFromInput('абвгдеж')).toBeUndefined();
    expect(roomIdFromInput('abcdéf')).toBeUndefined();
  });

  it('reads the room from the path of an invite or meet link', () => {
    expect(
      roomIdFromInput(
        'https://studyhall.example/dashboard/student/meet/abcd-efgh?meetingId=abcd-efgh&webcamEnabled=true&micEnabled=true',
      ),
    ).toBe('abcd-efgh');
    expect(roomIdFromInput('https://studyhall.example/dashboard/teacher/meet/Room_42x?token=a.b.c')).toBe('Room_42x');
    expect(roomIdFromInput('  http://localhost:5173/dashboard/student/meet/abcdef  ')).toBe('abcdef');
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abcdef#chat')).toBe('abcdef');
  });

  it('prefers the path over the query', () => {
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/from-path?meetingId=from-query')).toBe(
      'from-path',
    );
  });

  it('percent-decodes the room in the path', () => {
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc%5Fdef%2D1')).toBe('abc_def-1');
  });

  it('refuses a link whose path room is not a room ID, also after decoding', () => {
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc')).toBeUndefined();
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc%20def')).toBeUndefined();
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc%2Fdef')).toBeUndefined();
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/a%3Cscript%3E')).toBeUndefined();
  });

  it('refuses a malformed percent-encoding instead of throwing', () => {
    expect(() => roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc%E0%A4def')).not.toThrow();
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abc%E0%A4def')).toBeUndefined();
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/meet/abcdef%')).toBeUndefined();
  });

  it('reads a link that has the room only as ?meetingId=', () => {
    expect(roomIdFromInput('https://studyhall.example/dashboard/student/emeet?meetingId=abcd-efgh')).toBe('abcd-efgh');
    expect(roomIdFromInput('https://studyhall.example/?meetingId=Room_42x&other=1')).toBe('Room_42x');
    expect(roomIdFromInput('https://studyhall.example/?meetingId=abc')).toBeUndefined();
    expect(roomIdFromInput('https://studyhall.example/?meetingId=abc%20def')).toBeUndefined();
  });

  it('refuses garbage', () => {
    expect(roomIdFromInput('not a room id')).toBeUndefined();
    expect(roomIdFromInput('https://')).toBeUndefined();
    expect(roomIdFromInput('://meet/abcdef')).toBeUndefined();
    expect(roomIdFromInput('mailto:abcdef@example.com')).toBeUndefined();
  });

  it('refuses URLs with neither a /meet/ path nor a meetingId', () => {
    expect(roomIdFromInput('https://example.com/abcdef')).toBeUndefined();
    expect(roomIdFromInput('https://example.com/meetings/abcdef')).toBeUndefined();
    expect(roomIdFromInput('https://example.com/dashboard/student/emeet')).toBeUndefined();
    expect(roomIdFromInput('https://example.com/?room=abcdef')).toBeUndefined();
    expect(roomIdFromInput('https://meet.example.com/abcdef')).toBeUndefined();
  });
});

describe('readTokenClaims', () => {
  it('reads sub, room and exp of a signed token, and nothing else', async () => {
    const token = await signToken({ sub: 'user-1', room: 'abcd-efgh', exp: NOW_SECONDS + 600 });
    expect(readTokenClaims(token)).toEqual({ sub: 'user-1', room: 'abcd-efgh', exp: NOW_SECONDS + 600 });
  });

  it('reads a hand-made JWT (the page cannot check signatures)', () => {
    expect(readTokenClaims(handMadeToken({ sub: 'u', room: 'r', exp: 123 }))).toEqual({
      sub: 'u',
      room: 'r',
      exp: 123,
    });
  });

  it('is undefined when a claim is missing or of the wrong type', async () => {
    expect(readTokenClaims(await signToken({ room: 'abcdef', exp: NOW_SECONDS + 600 }))).toBeUndefined();
    expect(readTokenClaims(await signToken({ sub: 'user-1', exp: NOW_SECONDS + 600 }))).toBeUndefined();
    expect(readTokenClaims(await signToken({ sub: 'user-1', room: 'abcdef' }))).toBeUndefined();
    expect(readTokenClaims(handMadeToken({ sub: 'u', room: 'r', exp: '123' }))).toBeUndefined();
    expect(readTokenClaims(handMadeToken({ sub: 7, room: 'r', exp: 123 }))).toBeUndefined();
    expect(readTokenClaims(handMadeToken({ sub: 'u', room: ['r'], exp: 123 }))).toBeUndefined();
  });

  it('is undefined for garbage', () => {
    expect(readTokenClaims('')).toBeUndefined();
    expect(readTokenClaims('garbage')).toBeUndefined();
    expect(readTokenClaims('a.b.c')).toBeUndefined();
    expect(readTokenClaims('a.b')).toBeUndefined();
    expect(readTokenClaims('a.b.c.d.e')).toBeUndefined();
    expect(readTokenClaims(`${base64url({ alg: 'HS256' })}.${base64url('a string')}.sig`)).toBeUndefined();
    expect(readTokenClaims(`${base64url({ alg: 'HS256' })}.not-json.sig`)).toBeUndefined();
  });
});

describe('isUsableToken', () => {
  const userId = 'user-ada';
  const roomId = 'abcd-efgh';

  it('accepts a token of this user for this room with time left', async () => {
    const token = await signToken({ sub: userId, room: roomId, exp: NOW_SECONDS + 600 });
    expect(isUsableToken(token, userId, roomId, NOW)).toBe(true);
  });

  it('refuses a token of another user (a link copied with someone else’s token)', async () => {
    const token = await signToken({ sub: 'user-grace', room: roomId, exp: NOW_SECONDS + 600 });
    expect(isUsableToken(token, userId, roomId, NOW)).toBe(false);
    expect(isUsableToken(token, 'user-grace', roomId, NOW)).toBe(true);
  });

  it('refuses a token for another room', async () => {
    const token = await signToken({ sub: userId, room: 'other-room', exp: NOW_SECONDS + 600 });
    expect(isUsableToken(token, userId, roomId, NOW)).toBe(false);
    expect(isUsableToken(token, userId, 'ABCD-EFGH', NOW)).toBe(false);
  });

  it('needs more than 15 seconds left', async () => {
    const token = await signToken({ sub: userId, room: roomId, exp: NOW_SECONDS + 15 });
    expect(isUsableToken(token, userId, roomId, NOW - 1)).toBe(true);
    expect(isUsableToken(token, userId, roomId, NOW)).toBe(false);
    expect(isUsableToken(token, userId, roomId, NOW + 1)).toBe(false);
    expect(isUsableToken(token, userId, roomId, NOW + 15_000)).toBe(false);
    expect(isUsableToken(token, userId, roomId, NOW + 60_000)).toBe(false);
  });

  it('uses the current time by default', async () => {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const fresh = await signToken({ sub: userId, room: roomId, exp: nowSeconds + 600 });
    const expired = await signToken({ sub: userId, room: roomId, exp: nowSeconds - 1 });
    expect(isUsableToken(fresh, userId, roomId)).toBe(true);
    expect(isUsableToken(expired, userId, roomId)).toBe(false);
  });

  it('refuses no token and garbage', () => {
    expect(isUsableToken(undefined, userId, roomId, NOW)).toBe(false);
    expect(isUsableToken('', userId, roomId, NOW)).toBe(false);
    expect(isUsableToken('garbage', userId, roomId, NOW)).toBe(false);
    expect(isUsableToken(handMadeToken({ sub: userId, room: roomId }), userId, roomId, NOW)).toBe(false);
  });
});
