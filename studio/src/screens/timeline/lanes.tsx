import { useEffect, useRef, useState } from 'preact/hooks';
import { TimelineBlock } from './block.js';
import type { SaveWhen } from './use-timeline.js';
import { blockLabel, formatSeconds, visibleSeconds, type Timeline } from './model.js';

interface LanesProps {
  timeline: Timeline;
  selectedId: string | undefined;
  onSelect: (blockId: string) => void;
  onMove: (blockId: string, start: number, when: SaveWhen) => void;
  onMuteTrack: (trackId: string, muted: boolean) => void;
  /** Where the rendered result is playing, in seconds (a line across the tracks). */
  playhead: number | undefined;
}

/** Ruler steps a label may mark; the smallest that leaves room for its label is used. */
const RULER_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
const MIN_LABEL_GAP_PX = 48;
const ZOOMS = [0.5, 1, 2, 4, 8];

function rulerStep(pxPerSecond: number): number {
  return RULER_STEPS.find((step) => step * pxPerSecond >= MIN_LABEL_GAP_PX) ?? 600;
}

/** Ruler labels are short: "0.5 s", "12 s", "1:30". */
function tickLabel(seconds: number): string {
  if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(Math.round(seconds - minutes * 60)).padStart(2, '0')}`;
}

/** The width of the scrolling area, followed as the window changes size. */
function useWidth() {
  const element = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element.current) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element.current);
    return () => observer.disconnect();
  }, []);
  return { element, width };
}

/**
 * The tracks on a time ruler. At zoom 1 the whole timeline fits the width; zooming in scrolls the
 * tracks sideways inside their own area, never the page.
 */
export function Lanes({ timeline, selectedId, onSelect, onMove, onMuteTrack, playhead }: LanesProps) {
  const { element, width } = useWidth();
  const [zoomIndex, setZoomIndex] = useState(1);
  const seconds = visibleSeconds(timeline);
  const zoom = ZOOMS[zoomIndex] ?? 1;
  const pxPerSecond = (Math.max(width, 200) / seconds) * zoom;
  const step = rulerStep(pxPerSecond);
  const ticks = Array.from({ length: Math.floor(seconds / step) + 1 }, (_, index) => Math.round(index * step * 1000) / 1000);
  const mutedTracks = new Set(timeline.tracks.filter((track) => track.muted).map((track) => track.id));

  return (
    <section class="panel" aria-labelledby="timeline-tracks-title">
      <div class="row timeline-toolbar">
        <h2 id="timeline-tracks-title">Tracks</h2>
        <span class="hint">Duration {formatSeconds(timeline.duration)}</span>
        <div class="row" role="group" aria-label="Zoom">
          <button type="button" onClick={() => setZoomIndex((index) => Math.max(0, index - 1))} disabled={zoomIndex === 0}>
            Zoom out
          </button>
          <button type="button" onClick={() => setZoomIndex(1)} disabled={zoomIndex === 1}>
            Fit
          </button>
          <button type="button" onClick={() => setZoomIndex((index) => Math.min(ZOOMS.length - 1, index + 1))} disabled={zoomIndex === ZOOMS.length - 1}>
            Zoom in
          </button>
        </div>
      </div>
      <p id="timeline-keys" class="hint">
        Drag a block, or focus it and press ← → to move it by 0.1 s (with Shift, 1 s). Select a block to edit it below.
      </p>
      <div class="timeline-grid">
        <div class="timeline-heads">
          <div class="timeline-ruler-head" aria-hidden="true">
            Time
          </div>
          {timeline.tracks.map((track) => (
            <div class="timeline-head" key={track.id}>
              <span class="timeline-track-name" title={track.name}>
                {track.name}
              </span>
              <label class="timeline-mute">
                <input
                  type="checkbox"
                  checked={track.muted}
                  onChange={(event) => onMuteTrack(track.id, event.currentTarget.checked)}
                  aria-label={`Mute track ${track.name}`}
                />
                Mute
              </label>
            </div>
          ))}
        </div>
        <div class="timeline-scroll" ref={element}>
          <div class="timeline-content" style={{ width: `${seconds * pxPerSecond}px` }}>
            <div class="timeline-ruler" aria-hidden="true">
              {ticks.map((tick) => (
                <span key={tick} class="timeline-tick" style={{ left: `${tick * pxPerSecond}px` }}>
                  {tickLabel(tick)}
                </span>
              ))}
            </div>
            {timeline.tracks.map((track) => (
              <div class="timeline-lane" key={track.id} role="group" aria-label={`Track ${track.name}`} data-muted={track.muted ? '' : undefined}>
                {timeline.blocks
                  .filter((block) => block.track === track.id)
                  .map((block) => (
                    <TimelineBlock
                      key={block.id}
                      block={block}
                      label={blockLabel(block, timeline)}
                      pxPerSecond={pxPerSecond}
                      selected={block.id === selectedId}
                      audible={!block.muted && !mutedTracks.has(track.id)}
                      onSelect={onSelect}
                      onMove={onMove}
                    />
                  ))}
              </div>
            ))}
            {playhead !== undefined ? <div class="timeline-playhead" style={{ left: `${playhead * pxPerSecond}px` }} aria-hidden="true" /> : null}
          </div>
        </div>
      </div>
    </section>
  );
}
