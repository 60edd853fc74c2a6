/** Loudness (RMS of the waveform, 0..1) above which someone counts as speaking. */
const SPEAKING_LEVEL = 0.02;
/** How often levels are read, and how long someone stays "speaking" after the last loud moment. */
const SAMPLE_MS = 150;
const HOLD_MS = 600;

/** Root mean square of byte time-domain samples (128 is silence). */
export function levelOf(samples: Uint8Array): number {
  let sum = 0;
  for (const sample of samples) {
    const centred = (sample - 128) / 128;
    sum += centred * centred;
  }
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

/**
 * Who is speaking, from the sound of each participant (the speaking ring of a
 * tile). One AudioContext for the page; nothing is played through it.
 */
export class SpeakingDetector {
  private readonly context: AudioContext | null;
  private readonly sources = new Map<string, { track: MediaStreamTrack; analyser: AnalyserNode; node: AudioNode }>();
  private readonly lastLoud = new Map<string, number>();
  private speaking = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  /** One buffer for every reading (fftSize samples), not a new one each 150 ms. */
  private readonly samples = new Uint8Array(512);

  constructor(private readonly onChange: (speaking: ReadonlySet<string>) => void) {
    this.context = typeof AudioContext === 'function' ? new AudioContext() : null;
  }

  /** Listens to `track` as `key`'s sound (none: stop listening). */
  listen(key: string, track: MediaStreamTrack | null) {
    const current = this.sources.get(key);
    if (current?.track === track) return;
    if (current) {
      current.node.disconnect();
      this.sources.delete(key);
    }
    if (!track || !this.context) return;
    // Created from a user's click (Join), so the context may run; resume in case it started suspended.
    void this.context.resume().catch(() => undefined);
    const node = this.context.createMediaStreamSource(new MediaStream([track]));
    const analyser = this.context.createAnalyser();
    analyser.fftSize = 512;
    node.connect(analyser);
    this.sources.set(key, { track, analyser, node });
    this.timer ??= setInterval(() => this.sample(), SAMPLE_MS);
  }

  close() {
    clearInterval(this.timer);
    for (const { node } of this.sources.values()) node.disconnect();
    this.sources.clear();
    void this.context?.close().catch(() => undefined);
  }

  private sample() {
    const now = performance.now();
    const next = new Set<string>();
    for (const [key, { track, analyser }] of this.sources) {
      if (track.enabled && track.readyState === 'live') {
        analyser.getByteTimeDomainData(this.samples);
        if (levelOf(this.samples) > SPEAKING_LEVEL) this.lastLoud.set(key, now);
      }
      if (now - (this.lastLoud.get(key) ?? -Infinity) < HOLD_MS) next.add(key);
    }
    if (next.size !== this.speaking.size || [...next].some((key) => !this.speaking.has(key))) {
      this.speaking = next;
      this.onChange(next);
    }
  }
}
