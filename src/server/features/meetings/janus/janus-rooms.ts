import type { SfuRooms } from '../../../realtime/signalling-hub.ts';
import type { JanusGateway } from './janus-gateway.ts';
import { JanusParticipant } from './janus-participant.ts';

/** The signalling hub's SFU, on Janus (decision 037): rooms and participants through our gateway. */
export function createJanusRooms(gateway: JanusGateway): SfuRooms {
  return {
    isAvailable: () => gateway.status === 'connected',
    onUnavailable(listener) {
      return gateway.onStatus((status) => {
        if (status === 'unreachable' || status === 'closed') listener();
      });
    },
    participant({ roomId, id, roomSize, send, onFailure }) {
      return new JanusParticipant({ gateway, room: gateway.roomSpecFor(roomId, roomSize), id, send, onFailure });
    },
  };
}
