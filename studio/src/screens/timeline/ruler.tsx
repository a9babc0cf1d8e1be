import { formatSeconds, roundSeconds } from './model.js';

interface RulerProps {
  seconds: number;
  pxPerSecond: number;
  /** Where the playhead is, in seconds. */
  position: number;
  onSeek: (seconds: number) => void;
}

/** Ruler steps a label may mark; the smallest that leaves room for its label is used. */
const RULER_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
const MIN_LABEL_GAP_PX = 64;

/** Arrow keys on the ruler move the playhead by this much (with Shift, ten times as far). */
const SEEK_STEP_S = 0.1;

function rulerStep(pxPerSecond: number): number {
  return RULER_STEPS.find((step) => step * pxPerSecond >= MIN_LABEL_GAP_PX) ?? 600;
}

const SEEK_KEYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };

/**
 * The time ruler above the tracks, which is also where the playhead is set: a click puts it there,
 * and from the keyboard it is a slider (← → by 0.1 s, with Shift 1 s, Home to the start).
 */
export function Ruler({ seconds, pxPerSecond, position, onSeek }: RulerProps) {
  const step = rulerStep(pxPerSecond);
  const ticks = Array.from({ length: Math.floor(seconds / step) + 1 }, (_, index) => roundSeconds(index * step));
  const onKeyDown = (event: KeyboardEvent) => {
    const direction = SEEK_KEYS[event.key];
    if (event.key === 'Home') onSeek(0);
    else if (direction !== undefined) onSeek(roundSeconds(Math.min(seconds, Math.max(0, position + direction * SEEK_STEP_S * (event.shiftKey ? 10 : 1)))));
    else return;
    event.preventDefault();
  };
  return (
    <div
      class="timeline-ruler"
      role="slider"
      tabIndex={0}
      aria-label="Playhead"
      aria-valuemin={0}
      aria-valuemax={roundSeconds(seconds)}
      aria-valuenow={roundSeconds(position)}
      aria-valuetext={formatSeconds(position)}
      onClick={(event) => onSeek(roundSeconds(Math.max(0, (event.clientX - event.currentTarget.getBoundingClientRect().left) / pxPerSecond)))}
      onKeyDown={onKeyDown}
    >
      {ticks.map((tick) => (
        <span key={tick} class="timeline-tick" style={{ left: `${tick * pxPerSecond}px` }} aria-hidden="true">
          {formatSeconds(tick)}
        </span>
      ))}
    </div>
  );
}
