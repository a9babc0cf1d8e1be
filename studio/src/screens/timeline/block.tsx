import { useRef, useState } from 'preact/hooks';
import { BlockWaveform } from './block-waveform.js';
import type { SaveWhen } from './use-timeline.js';
import { blockEnd, formatSeconds, roundSeconds, type Block } from './model.js';
import { SNAP_PX, snappedStart } from './placement.js';

interface BlockProps {
  taskId: string;
  block: Block;
  /** The other blocks' starts and ends: a dragged block snaps to them. */
  edges: number[];
  /** The names of the blocks it plays over on its track (none: it overlaps nothing). */
  overlapping: string[];
  label: string;
  pxPerSecond: number;
  selected: boolean;
  /** Whether the block is heard: false when it or its track is muted. */
  audible: boolean;
  onSelect: (blockId: string) => void;
  onMove: (blockId: string, start: number, when: SaveWhen) => void;
}

interface Drag {
  pointerId: number;
  fromX: number;
  fromStart: number;
  moved: boolean;
}

/** The waveform's height inside a block (the lane's height less the block's margins). */
const WAVEFORM_PX = 38;

/** A pointer has to travel this far before a press becomes a drag (a click only selects). */
const DRAG_THRESHOLD_PX = 3;

const NUDGE: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1 };

/**
 * One block on its track: a button, so it is focusable and selectable from the keyboard. It is
 * dragged with the pointer (the new start is shown while dragging and saved on release), its start
 * or end snapping to another block's edge (or 0) within SNAP_PX, and moved with the arrow keys,
 * 0.1 s a press or 1 s with shift.
 */
export function TimelineBlock({ taskId, block, edges, overlapping, label, pxPerSecond, selected, audible, onSelect, onMove }: BlockProps) {
  const drag = useRef<Drag | undefined>(undefined);
  const [draggedStart, setDraggedStart] = useState<number>();
  const start = draggedStart ?? block.start;

  const length = blockEnd(block) - block.start;
  const startAt = (clientX: number, current: Drag) =>
    snappedStart(Math.max(0, current.fromStart + (clientX - current.fromX) / pxPerSecond), length, edges, SNAP_PX / pxPerSecond);
  const end = start + length;

  const onPointerDown = (event: PointerEvent) => {
    if (event.button !== 0 || !(event.currentTarget instanceof HTMLElement)) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId, fromX: event.clientX, fromStart: block.start, moved: false };
    onSelect(block.id);
  };
  const onPointerMove = (event: PointerEvent) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    if (!current.moved && Math.abs(event.clientX - current.fromX) < DRAG_THRESHOLD_PX) return;
    current.moved = true;
    setDraggedStart(startAt(event.clientX, current));
  };
  const onPointerUp = (event: PointerEvent) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = undefined;
    setDraggedStart(undefined);
    const landed = startAt(event.clientX, current);
    if (current.moved && landed !== block.start) onMove(block.id, landed, 'now');
  };
  const onPointerCancel = () => {
    drag.current = undefined;
    setDraggedStart(undefined);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const direction = NUDGE[event.key];
    if (direction === undefined) return;
    event.preventDefault();
    const step = event.shiftKey ? 1 : 0.1;
    const moved = roundSeconds(Math.max(0, block.start + direction * step));
    if (moved !== block.start) onMove(block.id, moved, 'soon');
  };

  const width = Math.max(6, (end - start) * pxPerSecond);
  return (
    <button
      type="button"
      class="timeline-block"
      data-kind={block.source.kind}
      data-dragging={draggedStart !== undefined ? '' : undefined}
      data-silent={audible ? undefined : ''}
      data-overlap={overlapping.length > 0 ? '' : undefined}
      style={{ left: `${start * pxPerSecond}px`, width: `${width}px` }}
      aria-pressed={selected}
      aria-label={`${label}, ${formatSeconds(start)} to ${formatSeconds(end)}${audible ? '' : ', muted'}${overlapping.length > 0 ? `, overlaps ${overlapping.join(', ')}` : ''}`}
      aria-describedby="timeline-keys"
      onClick={() => onSelect(block.id)}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onKeyDown={onKeyDown}
    >
      <BlockWaveform taskId={taskId} block={block} width={width} height={WAVEFORM_PX} />
      <span class="timeline-block-label">{label}</span>
    </button>
  );
}
