/**
 * Tests only: what the Janus suites share. A browser's publishing offer written out (no browser
 * in these tests), and a look into a Janus room as VideoRoom itself reports it.
 */
import { randomBytes } from 'node:crypto';
import { createTestApp } from '../../../testing/test-app.ts';
import { janusRoomId, type JanusGateway, type JanusLogger } from './janus-gateway.ts';
import type { SubscriptionTiming } from './janus-participant.ts';
import { createJanusRooms } from './janus-rooms.ts';

/** The Janus suites' gateways log nothing: the tests say what went wrong. */
export const quietLogger: JanusLogger = { info: () => {}, warn: () => {} };

/** An app whose meetings go through `gateway` (with test `timing`, if given), listening on a free port. */
export async function appThrough(gateway: JanusGateway, timing?: SubscriptionTiming) {
  const t = await createTestApp({ meetings: { sfu: createJanusRooms([gateway], undefined, timing), roomSize: 30 } });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl };
}

/** A browser's publishing offer, written out: sound only, with made-up ICE and DTLS credentials. */
export function publishingOffer(): string {
  const fingerprint = [...randomBytes(32)].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
  return [
    'v=0',
    `o=- ${Date.now()} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    'a=group:BUNDLE 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    `a=ice-ufrag:${randomBytes(4).toString('hex')}`,
    `a=ice-pwd:${randomBytes(12).toString('hex')}`,
    `a=fingerprint:sha-256 ${fingerprint.toUpperCase()}`,
    'a=setup:actpass',
    'a=mid:0',
    'a=sendonly',
    'a=rtcp-mux',
    'a=rtpmap:111 opus/48000/2',
    '',
  ].join('\r\n');
}

/** The slots of publishingOffer(): its one m-line carries the sound. */
export const OFFER_SLOTS = { audio: '0', camera: '1', screen: '2' } as const;

type ModerationEvent = { videoroom?: string; id?: string; mid?: string; moderation?: 'muted' | 'unmuted' };

/**
 * Watches a meeting's Janus room for VideoRoom `moderate` decisions, as Janus announces them to
 * everyone in the room: an observer joins (it publishes nothing) and records, per feed, whether
 * Janus now holds its sound back. The room is created first if need be (with the spec the app
 * uses for `roomSize`), so the observer is there before anyone publishes.
 */
export async function watchModeration(gateway: JanusGateway, meetingRoomId: string, roomSize: number) {
  const spec = gateway.roomSpecFor(meetingRoomId, roomSize);
  await gateway.ensureRoom(spec);
  const observer = await gateway.attachVideoRoom();
  const held = new Map<string, boolean>();
  // janode drops the events it has no name for (`moderation` among them): read them first.
  const handler = observer as unknown as { handleMessage(message: unknown): unknown };
  const handleMessage = handler.handleMessage.bind(observer);
  handler.handleMessage = (message: unknown) => {
    const data = (message as { plugindata?: { data?: ModerationEvent } }).plugindata?.data;
    if (data?.videoroom === 'event' && data.id !== undefined && data.moderation) {
      held.set(data.id, data.moderation === 'muted');
    }
    return handleMessage(message);
  };
  await observer.message({
    request: 'join',
    ptype: 'publisher',
    room: janusRoomId(meetingRoomId),
    pin: spec.pin,
    id: `observer-${randomBytes(4).toString('hex')}`,
  });
  return {
    /** Whether Janus holds the feed's sound back now; undefined until Janus said either way. */
    isSoundHeldBack: (feed: string) => held.get(feed),
    close: () => observer.detach().catch(() => {}),
  };
}

/**
 * A browser's answer to Janus's subscription offer, written out (a stand-in browser that speaks
 * our signalling but has no WebRTC): every offered stream received, a removed one (port 0) left
 * removed, each with the first codec offered, and made-up ICE and DTLS credentials. Janus takes
 * it and starts the subscription; no media flows without ICE, which these tests do not need.
 */
export function subscriptionAnswer(offer: string): string {
  const [session = '', ...sections] = offer.split(/\r\n(?=m=)/);
  const sessionId = /^o=\S+ (\d+)/m.exec(session)?.[1] ?? String(Date.now());
  const fingerprint = [...randomBytes(32)].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
  const credentials = [
    `a=ice-ufrag:${randomBytes(4).toString('hex')}`,
    `a=ice-pwd:${randomBytes(12).toString('hex')}`,
    `a=fingerprint:sha-256 ${fingerprint.toUpperCase()}`,
    'a=setup:active',
  ];
  const answered = sections.map((section) => {
    const [, media = 'audio', port = '9', format = '0'] = /^m=(\w+) (\d+) \S+ (\S+)/.exec(section) ?? [];
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1] ?? '';
    const codec = new RegExp(`^a=rtpmap:${format} (\\S+)`, 'm').exec(section)?.[1];
    const isRemoved = port === '0';
    return {
      mid,
      isRemoved,
      lines: [
        `m=${media} ${isRemoved ? 0 : 9} UDP/TLS/RTP/SAVPF ${format}`,
        'c=IN IP4 0.0.0.0',
        `a=mid:${mid}`,
        ...(isRemoved ? ['a=inactive'] : [...credentials, 'a=recvonly', 'a=rtcp-mux']),
        ...(codec ? [`a=rtpmap:${format} ${codec}`] : []),
      ],
    };
  });
  return [
    'v=0',
    `o=- ${sessionId} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    `a=group:BUNDLE ${answered.flatMap(({ mid, isRemoved }) => (isRemoved ? [] : [mid])).join(' ')}`,
    ...answered.flatMap(({ lines }) => lines),
    '',
  ].join('\r\n');
}
