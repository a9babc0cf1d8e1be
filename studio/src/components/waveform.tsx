import { useEffect, useRef } from 'preact/hooks';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';

export interface PeaksProps {
  /** The loudest sample of each 1/perSecond s of the source, 0..1. */
  peaks: Float32Array;
  perSecond: number;
  /** The part of the source to draw, in seconds. */
  from: number;
  to: number;
  width: number;
  height: number;
}

/**
 * A light waveform for many small views at once (a timeline's blocks): a canvas of bars from peaks
 * computed once per source, with none of the player's controls. It takes the colour of its text.
 */
export function Peaks({ peaks, perSecond, from, to, width, height }: PeaksProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!canvas.current || !context) return;
    const scale = window.devicePixelRatio || 1;
    const [pixels, rows] = [Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale))];
    canvas.current.width = pixels;
    canvas.current.height = rows;
    context.fillStyle = getComputedStyle(canvas.current).color;
    const perPixel = ((to - from) * perSecond) / pixels;
    for (let x = 0; x < pixels; x++) {
      const first = Math.floor(from * perSecond + x * perPixel);
      let peak = 0;
      for (let index = first; index < Math.max(first + 1, first + perPixel); index++) peak = Math.max(peak, peaks[index] ?? 0);
      const bar = Math.max(1, peak * rows);
      context.fillRect(x, (rows - bar) / 2, 1, bar);
    }
  }, [peaks, perSecond, from, to, width, height]);
  return <canvas ref={canvas} class="peaks" style={{ width: `${width}px`, height: `${height}px` }} aria-hidden="true" />;
}

export interface Span {
  start: number;
  end: number;
}

interface WaveformProps {
  /** An audio URL (the session cookie authenticates it) or a local Blob. */
  source: string | Blob;
  label: string;
  /** Regions a person may drag and resize; called with all of them after each change. */
  regions?: Span[];
  onRegions?: (regions: Span[]) => void;
  /** Called with the playing position in seconds (for word highlighting). */
  onTime?: (seconds: number) => void;
  /** Moves the playing position there whenever a new object is given (a clicked transcript word). */
  seek?: { seconds: number };
  height?: number;
}

/**
 * A waveform with a time ruler (wavesurfer.js), optional editable regions, and its own play
 * button so it works from the keyboard.
 */
export function Waveform({ source, label, regions, onRegions, onTime, seek, height = 72 }: WaveformProps) {
  const container = useRef<HTMLDivElement>(null);
  const surfer = useRef<WaveSurfer | undefined>(undefined);
  const callbacks = useRef({ onRegions, onTime });
  callbacks.current = { onRegions, onTime };

  useEffect(() => {
    if (!container.current) return;
    const regionsPlugin = RegionsPlugin.create();
    const timeline = TimelinePlugin.create({ height: 14 });
    const instance = WaveSurfer.create({
      container: container.current,
      height,
      waveColor: '#8a94a6',
      progressColor: '#3558d6',
      plugins: [regionsPlugin, timeline],
    });
    surfer.current = instance;
    const report = () => callbacks.current.onRegions?.(regionsPlugin.getRegions().map((region: Region) => ({ start: region.start, end: region.end })));
    instance.on('ready', () => {
      for (const span of regions ?? []) regionsPlugin.addRegion({ ...span, drag: true, resize: true, color: 'rgba(53, 88, 214, 0.18)' });
    });
    instance.on('timeupdate', (seconds) => callbacks.current.onTime?.(seconds));
    regionsPlugin.on('region-updated', report);
    if (typeof source === 'string') void instance.load(source).catch(() => undefined);
    else void instance.loadBlob(source).catch(() => undefined);
    return () => instance.destroy();
    // Regions are the starting layout; later changes come from the person dragging them.
  }, [source, height]);

  useEffect(() => {
    if (seek) surfer.current?.setTime(seek.seconds);
  }, [seek]);

  return (
    <div class="waveform">
      <button type="button" onClick={() => void surfer.current?.playPause()} aria-label={`Play or pause ${label}`}>
        ▶︎ / ❚❚
      </button>
      <div ref={container} role="img" aria-label={`Waveform of ${label}`} />
    </div>
  );
}
