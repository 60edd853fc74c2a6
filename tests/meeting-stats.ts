/**
 * What a meeting page sends and receives, from `RTCPeerConnection.getStats()`: for the Janus e2e
 * (how many camera streams a browser uploads) and `npm run bench:meeting` (upload bytes per
 * second, streams received). The app keeps its connections private, so an init script records
 * every connection the page makes.
 */
import type { Page } from 'playwright-core';

type RecordingWindow = Window & { __meetingConnections?: RTCPeerConnection[] };

/**
 * For `context.addInitScript(recordPeerConnections)`: every RTCPeerConnection the page creates is
 * kept in `window.__meetingConnections`. Runs in the page (serialised by Playwright): it must
 * not use anything from this module.
 */
export function recordPeerConnections() {
  const recorded: RTCPeerConnection[] = [];
  (window as RecordingWindow).__meetingConnections = recorded;
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      recorded.push(this);
    }
  };
}

/** One RTP stream of one of the page's open connections. */
export type RtpStream = {
  /** Stable across calls: the connection's index in the page and the report's id. */
  key: string;
  direction: 'outbound' | 'inbound';
  kind: 'audio' | 'video';
  /** Payload bytes sent (outbound) or received (inbound), RTP headers and padding not included. */
  bytes: number;
  /** Of `bytes`, those sent again (outbound): retransmissions, and Chromium's bandwidth probes on the RTX stream. */
  retransmittedBytes: number;
  /** RTP packets sent (outbound) or received (inbound). */
  packets: number;
  /** Frames encoded (outbound) or decoded (inbound); 0 for audio. */
  frames: number;
  /** Key frames encoded (outbound) or decoded (inbound). */
  keyFrames: number;
  /** Picture loss indications received (outbound: the far end asked for a key frame) or sent (inbound). */
  pictureLossIndications: number;
  /** The simulcast layer of an outbound stream, when it has one. */
  rid?: string;
  /** The video's size as last encoded or decoded. */
  frameWidth?: number;
  frameHeight?: number;
  /** What holds an outbound video's quality down now: 'cpu', 'bandwidth', 'none' or 'other'. */
  qualityLimitationReason?: string;
  /** Inbound audio: the sound energy received so far (grows while the sender's microphone is on). */
  audioEnergy?: number;
  /**
   * The far end's UDP port on the connection's selected candidate pair: which server the media
   * goes through (each Janus of a test has its own RTP port range). Absent before ICE picks a pair.
   */
  remotePort?: number;
};

/** The page's RTP streams now, and the page's clock (ms) when they were read. */
export async function readRtpStreams(page: Page): Promise<{ at: number; streams: RtpStream[] }> {
  // No named functions inside: under tsx (the benches) esbuild would wrap them in a `__name`
  // helper that does not exist in the page.
  return page.evaluate(async () => {
    const connections = (window as RecordingWindow).__meetingConnections ?? [];
    const at = performance.now();
    const streams: RtpStream[] = [];
    for (const [index, connection] of connections.entries()) {
      if (connection.connectionState === 'closed') continue;
      const stats = await connection.getStats();
      stats.forEach((report: Record<string, unknown>) => {
        const isOutbound = report.type === 'outbound-rtp';
        if (!isOutbound && report.type !== 'inbound-rtp') return;
        const bytes = report[isOutbound ? 'bytesSent' : 'bytesReceived'];
        const retransmitted = report.retransmittedBytesSent;
        const keyFrames = report[isOutbound ? 'keyFramesEncoded' : 'keyFramesDecoded'];
        const packets = report[isOutbound ? 'packetsSent' : 'packetsReceived'];
        const frames = report[isOutbound ? 'framesEncoded' : 'framesDecoded'];
        // The report's transport, its selected candidate pair, and that pair's remote candidate.
        const transport = stats.get(String(report.transportId)) as Record<string, unknown> | undefined;
        const pair = stats.get(String(transport?.selectedCandidatePairId)) as Record<string, unknown> | undefined;
        const remote = stats.get(String(pair?.remoteCandidateId)) as Record<string, unknown> | undefined;
        streams.push({
          key: `${index}/${String(report.id)}`,
          direction: isOutbound ? 'outbound' : 'inbound',
          kind: report.kind === 'audio' ? 'audio' : 'video',
          bytes: typeof bytes === 'number' ? bytes : 0,
          retransmittedBytes: typeof retransmitted === 'number' ? retransmitted : 0,
          packets: typeof packets === 'number' ? packets : 0,
          frames: typeof frames === 'number' ? frames : 0,
          keyFrames: typeof keyFrames === 'number' ? keyFrames : 0,
          pictureLossIndications: typeof report.pliCount === 'number' ? report.pliCount : 0,
          ...(typeof report.rid === 'string' ? { rid: report.rid } : {}),
          ...(typeof report.frameWidth === 'number' ? { frameWidth: report.frameWidth } : {}),
          ...(typeof report.frameHeight === 'number' ? { frameHeight: report.frameHeight } : {}),
          ...(typeof report.qualityLimitationReason === 'string'
            ? { qualityLimitationReason: report.qualityLimitationReason }
            : {}),
          ...(typeof report.totalAudioEnergy === 'number' ? { audioEnergy: report.totalAudioEnergy } : {}),
          ...(typeof remote?.port === 'number' ? { remotePort: remote.port } : {}),
        });
      });
    }
    return { at, streams };
  });
}
