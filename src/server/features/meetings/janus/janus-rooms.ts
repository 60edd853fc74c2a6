import type { SfuRooms } from '../meeting-hub.ts';
import type { JanusGateway } from './janus-gateway.ts';
import { JanusParticipant, type SubscriptionTiming } from './janus-participant.ts';
import { createMemoryRoomServers, type RoomServers } from './room-servers.ts';

/**
 * The signalling hub's SFU, on one or more Janus servers (decision 037): each participant holds
 * its room's server in `roomServers` (shared through Redis by every instance, or in memory for one)
 * and talks to that server's gateway. A server going away closes only the participants on it.
 *
 * `gateways` in JANUS_URL's order: the first of a tie gets a new room. `timing`: tests only (the
 * production waits are SUBSCRIPTION_TIMING's).
 */
export function createJanusRooms(
  gateways: readonly JanusGateway[],
  roomServers: RoomServers = createMemoryRoomServers(),
  timing?: SubscriptionTiming,
): SfuRooms {
  const byUrl = new Map(gateways.map((gateway) => [gateway.url, gateway]));
  return {
    async participant({ roomId, id, roomSize, send, onFailure, onServerLost }) {
      const reachable = gateways.filter((gateway) => gateway.status === 'connected').map((gateway) => gateway.url);
      const server = await roomServers.hold({
        roomId,
        holderId: id,
        reachable,
        // The room may have moved meanwhile: the hub takes this participant to where it is now.
        onLost: onServerLost,
      });
      const gateway = server === undefined ? undefined : byUrl.get(server);
      if (!gateway) {
        if (server !== undefined) await roomServers.release(roomId, id);
        return undefined;
      }
      // Its server going away ends this participant's media there: the hub moves it (with the
      // room, once the room's people have all let this server go) to one that works.
      const stopWatching = gateway.onStatus((status) => {
        if (status === 'unreachable' || status === 'closed') onServerLost();
      });
      if (gateway.status !== 'connected') {
        stopWatching();
        await roomServers.release(roomId, id);
        return undefined;
      }
      const participant = new JanusParticipant({
        gateway,
        room: gateway.roomSpecFor(roomId, roomSize),
        id,
        send,
        onFailure,
        ...(timing ? { timing } : {}),
      });
      return {
        publish: (sdp, slots) => participant.publish(sdp, slots),
        answer: (sdp, revision) => participant.answer(sdp, revision),
        candidate: (connection, candidate) => participant.candidate(connection, candidate),
        view: (cameras, layer) => participant.view(cameras, layer),
        allowAudio: (allowed) => participant.allowAudio(allowed),
        async close() {
          stopWatching();
          await participant.close();
          await roomServers.release(roomId, id);
        },
      };
    },
  };
}
