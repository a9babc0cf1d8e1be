import { useEffect, useRef } from 'preact/hooks';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import TimelinePlugin from 'wavesurfer.js/dist/plugins/timeline.esm.js';

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
  height?: number;
}

/**
 * A waveform with a time ruler (wavesurfer.js), optional editable regions, and its own play
 * button so it works from the keyboard.
 */
export function Waveform({ source, label, regions, onRegions, onTime, height = 72 }: WaveformProps) {
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

  return (
    <div class="waveform">
      <button type="button" onClick={() => void surfer.current?.playPause()} aria-label={`Play or pause ${label}`}>
        ▶︎ / ❚❚
      </button>
      <div ref={container} role="img" aria-label={`Waveform of ${label}`} />
    </div>
  );
}
