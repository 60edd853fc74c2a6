/**
 * Issue 30 point 9b: a slow browser must not knock a class out of the room (decision 044). The
 * app's meeting socket, gateway and participants as they run, in front of a stand-in Janus
 * (stand-in-janus.ts: the real one announces a publisher only once its media is up, which needs a
 * real browser), with stand-in browsers that speak our signalling and answer the subscription's
 * offers exactly when a test says: late, never, or twice. The waits are the production ones
 * scaled down (SubscriptionTiming) in the same proportions. That media keeps flowing in a real
 * browser meanwhile: tests/e2e/meetings-janus.spec.ts.
 */
import { WebSocket } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_CODES, type ServerMessage } from '#shared/meetings';
import { accountMeetingToken, freshRoomId, MeetingTestClient, type MeetingPerson } from '../meeting-test-client.ts';
import type { TestApp } from '../../../testing/test-app.ts';
import { patience } from '../../../testing/patience.ts';
import { JanusGateway } from './janus-gateway.ts';
import type { SubscriptionTiming } from './janus-participant.ts';
import { appThrough, OFFER_SLOTS, publishingOffer, quietLogger, subscriptionAnswer } from './janus-testing.ts';
import { StandInJanus } from './stand-in-janus.ts';

type Offer = Extract<ServerMessage, { type: 'sfu-offer' }>;

/**
 * One unit of the tests' clock: the production waits (30 s for a join's answer, 45 s for each of
 * an update's two sends, 150 ms of gathering) become 2, 3 and 3 units, so a late answer can fall
 * between them. It grows with the machine's load (decision 042), up to 4 times: past that the
 * tests would only take longer, the margins (half a unit) are already seconds.
 */
const UNIT_MS = Math.min(patience(500), 4 * 500);
const TIMING: SubscriptionTiming = {
  joinAnswerMs: 2 * UNIT_MS,
  updateAnswerMs: 3 * UNIT_MS,
  updateSends: 2,
  coalesceMs: 3 * UNIT_MS,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Sleeps until `ms` after `since` (a Date.now()). */
const sleepUntil = (since: number, ms: number) => sleep(Math.max(0, since + ms - Date.now()));

describe('a slow browser in a room through Janus', () => {
  let janus: StandInJanus;
  let gateway: JanusGateway;
  let t: TestApp;
  let baseUrl: string;
  const clients: MeetingTestClient[] = [];

  beforeAll(async () => {
    janus = await StandInJanus.start();
    gateway = new JanusGateway({ url: janus.url, apiSecret: 'stand-in-api-secret', logger: quietLogger });
    await gateway.start();
    await gateway.whenStatus('connected');
    ({ t, baseUrl } = await appThrough(gateway, TIMING));
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
    await janus.close();
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  type Person = { client: MeetingTestClient; id: string };

  /** A stand-in browser in the room that has published its sound. */
  async function publisher(roomId: string, person: MeetingPerson): Promise<Person> {
    const joined = await MeetingTestClient.join(baseUrl, await accountMeetingToken(t.database, roomId, person), roomId);
    clients.push(joined.client);
    joined.client.send({ type: 'sfu-publish', sdp: publishingOffer(), slots: OFFER_SLOTS });
    await joined.client.waitFor('sfu-published');
    return { client: joined.client, id: joined.welcome.you.id };
  }

  const nextOffer = (person: Person, timeoutMs?: number) => person.client.waitFor('sfu-offer', undefined, timeoutMs);
  const answer = (person: Person, offer: Offer) =>
    person.client.send({ type: 'sfu-answer', sdp: subscriptionAnswer(offer.sdp), revision: offer.revision });
  const owners = (streams: readonly { participantId?: string; feed_id?: string }[]) =>
    [...new Set(streams.map((stream) => stream.participantId ?? stream.feed_id))].sort();
  /** Whose streams flow to the page now, per Janus: those of the last offer it answered. */
  const flowingTo = (offer: Offer) => owners(janus.subscriptionOf(offer.sdp).flowing);
  const ids = (...people: Person[]) => people.map((person) => person.id).sort();

  /**
   * Ada and Bob in a room, each receiving the other (their first offers answered at once); then
   * Cleo publishes, and Ada is offered an update to receive her too (Bob answers his at once).
   */
  async function roomWithAnUpdate() {
    const roomId = freshRoomId();
    const ada = await publisher(roomId, { name: 'Ada', role: 'teacher' });
    const bob = await publisher(roomId, { name: 'Bob' });
    for (const person of [ada, bob]) answer(person, await nextOffer(person));
    const cleo = await publisher(roomId, { name: 'Cleo' });
    answer(cleo, await nextOffer(cleo));
    const update = await nextOffer(ada);
    const offeredAt = Date.now();
    expect(owners(update.streams)).toEqual(ids(bob, cleo));
    answer(bob, await nextOffer(bob));
    return { roomId, ada, bob, cleo, update, offeredAt };
  }

  it(
    'keeps a page that answers an update later than a join may take, without sending it again',
    async () => {
      const { ada, bob, cleo, update, offeredAt } = await roomWithAnUpdate();
      await sleepUntil(offeredAt, 2.5 * UNIT_MS);
      expect(ada.client.received('sfu-offer')).toEqual([]);
      answer(ada, update);
      await expect.poll(() => flowingTo(update)).toEqual(ids(bob, cleo));
      await sleep(3 * UNIT_MS);
      expect(ada.client.socket.readyState).toBe(WebSocket.OPEN);
      expect(ada.client.received('sfu-offer')).toEqual([]);
    },
    patience(30_000),
  );

  it(
    'sends an unanswered update once more, and takes the answer to the second send',
    async () => {
      const { ada, bob, cleo, update, offeredAt } = await roomWithAnUpdate();
      const again = await nextOffer(ada, 10_000);
      expect(Date.now() - offeredAt).toBeGreaterThanOrEqual(3 * UNIT_MS - 100);
      expect(again).toEqual(update);
      answer(ada, again);
      await expect.poll(() => flowingTo(update)).toEqual(ids(bob, cleo));
      await sleep(4 * UNIT_MS);
      expect(ada.client.socket.readyState).toBe(WebSocket.OPEN);
      expect(ada.client.received('sfu-offer')).toEqual([]);
    },
    patience(30_000),
  );

  it(
    'gives up on a page that answers neither send: its socket closes and it rejoins',
    async () => {
      const { ada, bob, update, offeredAt } = await roomWithAnUpdate();
      expect(await nextOffer(ada, 10_000)).toEqual(update);
      expect((await ada.client.closedWithin(10_000)).code).toBe(CLOSE_CODES.MEDIA_UNAVAILABLE);
      expect(Date.now() - offeredAt).toBeGreaterThanOrEqual(6 * UNIT_MS - 100);
      expect((await bob.client.waitFor('participant-left')).participantId).toBe(ada.id);
    },
    patience(30_000),
  );

  it(
    'takes a late answer to the first send while the second waits, and no answer for a later offer',
    async () => {
      const { roomId, ada, bob, cleo, update } = await roomWithAnUpdate();
      const again = await nextOffer(ada, 10_000);
      // The slow page answers the first send now, and the second only after the room changed again.
      answer(ada, update);
      await expect.poll(() => flowingTo(update)).toEqual(ids(bob, cleo));
      const dan = await publisher(roomId, { name: 'Dan' });
      const next = await nextOffer(ada);
      expect(next.revision).toBeGreaterThan(again.revision);
      answer(ada, again);
      await sleep(UNIT_MS);
      expect(ada.client.socket.readyState).toBe(WebSocket.OPEN);
      answer(ada, next);
      await expect.poll(() => flowingTo(next)).toEqual(ids(bob, cleo, dan));
      expect(ada.client.socket.readyState).toBe(WebSocket.OPEN);
    },
    patience(30_000),
  );

  it(
    'gathers room changes within its window into one offer per page',
    async () => {
      const roomId = freshRoomId();
      const ada = await publisher(roomId, { name: 'Ada', role: 'teacher' });
      const bob = await publisher(roomId, { name: 'Bob' });
      for (const person of [ada, bob]) answer(person, await nextOffer(person));
      // Three join one after another within the window (a class arriving): one update each for
      // Ada and Bob, not one per joiner.
      const joiners: Person[] = [];
      const firstAt = Date.now();
      for (const name of ['Cleo', 'Dan', 'Eve']) joiners.push(await publisher(roomId, { name }));
      expect(Date.now() - firstAt, 'the joiners came within the window').toBeLessThan(TIMING.coalesceMs);
      for (const person of joiners) answer(person, await nextOffer(person));
      for (const person of [ada, bob]) {
        const update = await nextOffer(person);
        expect(owners(update.streams)).toEqual(ids(...[ada, bob, ...joiners].filter((other) => other !== person)));
        answer(person, update);
      }
      await sleep(3 * UNIT_MS);
      expect([...ada.client.received('sfu-offer'), ...bob.client.received('sfu-offer')]).toEqual([]);
    },
    patience(30_000),
  );

  it(
    'keeps the current streams flowing while an update waits, and follows Janus’s own change after',
    async () => {
      const { ada, bob, cleo, update, offeredAt } = await roomWithAnUpdate();
      const requestsBefore = janus.requestsOf(update.sdp).length;
      // Past a join's limit, and past the first send's: Bob's sound still reaches Ada all along.
      await sleepUntil(offeredAt, 2.5 * UNIT_MS);
      expect(flowingTo(update)).toEqual(ids(bob));
      expect(await nextOffer(ada, 10_000)).toEqual(update);
      expect(flowingTo(update)).toEqual(ids(bob));
      // Nothing was torn down meanwhile: no request on the subscription since the update.
      expect(janus.requestsOf(update.sdp).slice(requestsBefore)).toEqual([]);
      // Bob leaves meanwhile: Janus holds its own update until Ada answers, then offers it.
      bob.client.close();
      await ada.client.waitFor('participant-left');
      answer(ada, update);
      const afterBob = await nextOffer(ada);
      expect(owners(afterBob.streams)).toEqual(ids(cleo));
      answer(ada, afterBob);
      const started = () =>
        janus
          .requestsOf(update.sdp)
          .slice(requestsBefore)
          .map((request) => request.request);
      await expect.poll(started).toEqual(['start', 'start']);
      expect(flowingTo(afterBob)).toEqual(ids(cleo));
      expect(ada.client.socket.readyState).toBe(WebSocket.OPEN);
    },
    patience(30_000),
  );
});
