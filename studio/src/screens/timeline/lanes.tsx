import { useEffect, useRef, useState } from 'preact/hooks';
import { TimelineBlock } from './block.js';
import type { SaveWhen } from './use-timeline.js';
import { blockLabel, formatSeconds, visibleSeconds, type Timeline } from './model.js';
import { edgesBesides, overlaps } from './placement.js';
import { Ruler } from './ruler.js';

interface LanesProps {
  taskId: string;
  timeline: Timeline;
  selectedId: string | undefined;
  onSelect: (blockId: string) => void;
  onMove: (blockId: string, start: number, when: SaveWhen) => void;
  onMuteTrack: (trackId: string, muted: boolean) => void;
  /** Where the preview (or the rendered result) is playing, in seconds: a line across the tracks. */
  playhead: number;
  onSeek: (seconds: number) => void;
}

const ZOOMS = [0.5, 1, 2, 4, 8];

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
export function Lanes({ taskId, timeline, selectedId, onSelect, onMove, onMuteTrack, playhead, onSeek }: LanesProps) {
  const { element, width } = useWidth();
  const [zoomIndex, setZoomIndex] = useState(1);
  const seconds = visibleSeconds(timeline);
  const zoom = ZOOMS[zoomIndex] ?? 1;
  const pxPerSecond = (Math.max(width, 200) / seconds) * zoom;
  const label = (blockId: string) => {
    const block = timeline.blocks.find((candidate) => candidate.id === blockId);
    return block ? blockLabel(block, timeline) : blockId;
  };
  const overlapping = overlaps(timeline.blocks);
  const partners = (blockId: string) =>
    overlapping.flatMap(({ first, second }) => (first.id === blockId ? [label(second.id)] : second.id === blockId ? [label(first.id)] : []));
  const trackName = (trackId: string) => timeline.tracks.find((track) => track.id === trackId)?.name ?? trackId;
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
        Drag a block (it snaps to the edges of the others), or focus it and press ← → to move it by 0.1 s (with Shift, 1 s). Select a block to edit it below.
      </p>
      {overlapping.length > 0 ? (
        <div class="timeline-warning" role="status">
          <strong>Blocks play over each other:</strong>
          <ul>
            {overlapping.map(({ first, second }) => (
              <li key={`${first.id}/${second.id}`}>
                {label(first.id)} overlaps {label(second.id)} on the track {trackName(first.track)}.
              </li>
            ))}
          </ul>
          Move one of them if they should not.
        </div>
      ) : null}
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
            <Ruler seconds={seconds} pxPerSecond={pxPerSecond} position={playhead} onSeek={onSeek} />
            {timeline.tracks.map((track) => (
              <div class="timeline-lane" key={track.id} role="group" aria-label={`Track ${track.name}`} data-muted={track.muted ? '' : undefined}>
                {timeline.blocks
                  .filter((block) => block.track === track.id)
                  .map((block) => (
                    <TimelineBlock
                      key={block.id}
                      taskId={taskId}
                      block={block}
                      edges={edgesBesides(timeline.blocks, block.id)}
                      overlapping={partners(block.id)}
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
            <div class="timeline-playhead" style={{ left: `${playhead * pxPerSecond}px` }} aria-hidden="true" />
          </div>
        </div>
      </div>
    </section>
  );
}
