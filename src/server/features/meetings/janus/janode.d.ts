/**
 * Types for the part of janode (Meetecho's Node adapter for Janus, plain JavaScript) we use.
 * Written from janode 1.8's JSDoc; widen them as the meeting code uses more of it.
 */
declare module 'janode' {
  import type { EventEmitter } from 'node:events';

  export type ServerAddress = { url: string; apisecret?: string; token?: string };

  export interface JanodeHandle extends EventEmitter {
    id: number;
    detach(): Promise<void>;
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
  import type { JanodeHandle } from 'janode';

  type RoomId = number | string;

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
    list(params?: { admin_key?: string }): Promise<{
      list: { room: RoomId; description: string; pin_required: boolean; max_publishers: number }[];
    }>;
  }

  const VideoRoomPlugin: { id: string; Handle: new (...args: never[]) => VideoRoomHandle };
  export default VideoRoomPlugin;
}
