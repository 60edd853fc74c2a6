import type { SfuRooms } from '../../../realtime/signalling-hub.ts';
import { JanusUnavailableError, type JanusGateway } from './janus-gateway.ts';
import { JanusParticipant } from './janus-participant.ts';
import { createMemoryRoomServers, type RoomServers } from './room-servers.ts';

/**
 * The signalling hub's SFU, on one or more Janus servers (decision 037): each participant holds
 * its room's server in `roomServers` (shared through Redis by every instance, or in memory for one)
 * and talks to that server's gateway. A server going away closes only the participants on it.
 *
 * `gateways` in JANUS_URL's order: the first of a tie gets a new room.
 */
export function createJanusRooms(
  gateways: readonly JanusGateway[],
  roomServers: RoomServers = createMemoryRoomServers(),
): SfuRooms {
  const byUrl = new Map(gateways.map((gateway) => [gateway.url, gateway]));
  return {
    async participant({ roomId, id, roomSize, send, onFailure }) {
      const reachable = gateways.filter((gateway) => gateway.status === 'connected').map((gateway) => gateway.url);
      const server = await roomServers.hold({
        roomId,
        holderId: id,
        reachable,
        onLost: () => onFailure(new Error('the hold on the room’s Janus lapsed')),
      });
      const gateway = server === undefined ? undefined : byUrl.get(server);
      if (!gateway) {
        if (server !== undefined) await roomServers.release(roomId, id);
        return undefined;
      }
      // Its server going away ends this participant's media: the page reconnects (and may land on
      // another server once the room's people have all let this one go).
      const stopWatching = gateway.onStatus((status) => {
        if (status === 'unreachable' || status === 'closed') onFailure(new JanusUnavailableError());
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
      });
      return {
        publish: (sdp, slots) => participant.publish(sdp, slots),
        answer: (sdp) => participant.answer(sdp),
        candidate: (connection, candidate) => participant.candidate(connection, candidate),
        view: (cameras, layer) => participant.view(cameras, layer),
        async close() {
          stopWatching();
          await participant.close();
          await roomServers.release(roomId, id);
        },
      };
    },
  };
}
