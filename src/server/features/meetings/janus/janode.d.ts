/**
 * Types for the part of janode (Meetecho's Node adapter for Janus, plain JavaScript) we use.
 * Written from janode 1.8's JSDoc; widen them as the meeting code uses more of it.
 */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export type ServerAddress = { url: string; apisecret?: string; token?: string };

  export type Jsep = { type: 'offer' | 'answer'; sdp: string };
  export type TrickleCandidate = {
    candidate: string;
    sdpMid?: string | null;
    sdpMLineIndex?: number | null;
    usernameFragment?: string | null;
  };

  export interface JanodeHandle extends EventEmitter {
    id: number;
    detach(): Promise<void>;
    trickle(candidate: TrickleCandidate): Promise<void>;
    trickleComplete(): Promise<void>;
    /** A plugin request janode has no helper for (VideoRoom `moderate`); resolves with Janus's reply. */
    message(body: object, jsep?: Jsep): Promise<unknown>;
  }

  export interface JanodeSession extends EventEmitter {
    id: number;
    attach<H extends JanodeHandle>(plugin: { id: string; Handle: new (...args: never[]) => H }): Promise<H>;
    destroy(): Promise<void>;
  }

  export interface JanodeConnection extends EventEmitter {
    create(keepAliveSeconds?: number): Promise<JanodeSession>;
    close(): Promise<void>;
  }

  const Janode: {
    connect(config: {
      address: ServerAddress | ServerAddress[];
      /** janode's own retries when opening; 0 here: we retry ourselves and report in between. */
      retry_time_secs?: number;
      max_retries?: number;
    }): Promise<JanodeConnection>;
    Logger: { setLevel(level: 'debug' | 'verb' | 'info' | 'warn' | 'error' | 'none'): string };
    EVENT: {
      CONNECTION_CLOSED: 'connection_closed';
      SESSION_DESTROYED: 'session_destroyed';
      HANDLE_DETACHED: 'handle_detached';
      CONNECTION_ERROR: 'connection_error';
    };
  };
  export default Janode;
}

declare module 'janode/plugins/videoroom' {
  import type { JanodeHandle, Jsep } from 'janode';

  type RoomId = number | string;

  /** One stream of a publisher, as Janus lists it (multistream, Janus 1.x). */
  export type PublisherStream = {
    type: 'audio' | 'video' | 'data';
    mindex: number;
    mid: string;
    description?: string;
    disabled?: boolean;
  };
  export type Publisher = { feed: RoomId; display?: string; streams?: PublisherStream[] };

  /** One stream of a subscription: its mid on the subscriber's connection and where it comes from. */
  export type SubscriberStream = {
    mindex: number;
    mid: string;
    type: 'audio' | 'video' | 'data';
    active?: boolean;
    feed_id?: RoomId;
    feed_mid?: string;
  };
  export type StreamRef = { feed: RoomId; mid?: string };

  export interface VideoRoomHandle extends JanodeHandle {
    create(params: {
      room?: RoomId;
      description?: string;
      max_publishers?: number;
      permanent?: boolean;
      is_private?: boolean;
      secret?: string;
      pin?: string;
      admin_key?: string;
      bitrate?: number;
      notify_joining?: boolean;
      talking_events?: boolean;
    }): Promise<{ room: RoomId; permanent: boolean }>;
    destroy(params: { room: RoomId; permanent?: boolean; secret?: string }): Promise<{ room: RoomId }>;
    exists(params: { room: RoomId }): Promise<{ room: RoomId; exists: boolean }>;
    joinConfigurePublisher(params: {
      room: RoomId;
      feed?: RoomId;
      display?: string;
      pin?: string;
      descriptions?: { mid: string; description: string }[];
      jsep: Jsep;
    }): Promise<{ feed: RoomId; publishers: Publisher[]; jsep?: Jsep }>;
    configure(params: {
      jsep?: Jsep;
      restart?: boolean;
      /** A subscriber's streams (by its own mid): which simulcast substream (0 lowest) each gets. */
      streams?: { mid: string; substream?: number }[];
    }): Promise<{ jsep?: Jsep }>;
    joinSubscriber(params: {
      room: RoomId;
      pin?: string;
      streams: StreamRef[];
      autoupdate?: boolean;
      use_msid?: boolean;
    }): Promise<{ streams?: SubscriberStream[]; jsep?: Jsep }>;
    update(params: {
      subscribe?: StreamRef[];
      unsubscribe?: StreamRef[];
    }): Promise<{ streams?: SubscriberStream[]; jsep?: Jsep }>;
    start(params: { jsep?: Jsep }): Promise<unknown>;
    leave(): Promise<unknown>;
    listParticipants(params: { room: RoomId; secret?: string }): Promise<{
      room: RoomId;
      participants: { feed: RoomId; display?: string; publisher: boolean; talking?: boolean }[];
    }>;
    list(params?: { admin_key?: string }): Promise<{
      list: { room: RoomId; description: string; pin_required: boolean; max_publishers: number }[];
    }>;
  }

  const VideoRoomPlugin: {
    id: string;
    Handle: new (...args: never[]) => VideoRoomHandle;
    EVENT: {
      VIDEOROOM_PUB_LIST: 'videoroom_publisher_list';
      VIDEOROOM_UNPUBLISHED: 'videoroom_unpublished';
      VIDEOROOM_LEAVING: 'videoroom_leaving';
      VIDEOROOM_UPDATED: 'videoroom_updated';
      VIDEOROOM_DESTROYED: 'videoroom_destroyed';
      VIDEOROOM_KICKED: 'videoroom_kicked';
    };
  };
  export default VideoRoomPlugin;
}
