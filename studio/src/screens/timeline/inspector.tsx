import { useState } from 'preact/hooks';
import { blockLabel, formatSeconds, roundSeconds, type Block, type Timeline } from './model.js';

interface InspectorProps {
  timeline: Timeline;
  block: Block | undefined;
  onChange: (blockId: string, change: Partial<Block>) => void;
  onRemove: (blockId: string) => void;
  disabled: boolean;
}

interface NumberFieldProps {
  label: string;
  value: number;
  min?: number;
  max?: number;
  /** A time in seconds, shown and taken to the millisecond; otherwise shown as it is. */
  seconds?: boolean;
  step?: number;
  onCommit: (value: number) => void;
  disabled: boolean;
}

/**
 * A number saved when the person commits it (Enter, leaving the field, the spinner). What they
 * type is kept while they type, so a save of another field that lands meanwhile does not wipe it.
 */
function NumberField({ label, value, min, max, seconds = false, step = 0.001, onCommit, disabled }: NumberFieldProps) {
  const [typed, setTyped] = useState<string>();
  return (
    <label>
      {label}
      <input
        type="number"
        value={typed ?? (seconds ? value.toFixed(3) : String(value))}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onInput={(event) => setTyped(event.currentTarget.value)}
        onChange={(event) => {
          const entered = seconds ? roundSeconds(event.currentTarget.valueAsNumber) : event.currentTarget.valueAsNumber;
          setTyped(undefined);
          if (Number.isFinite(entered) && entered !== value) onCommit(entered);
        }}
      />
    </label>
  );
}

/**
 * The selected block's position, trims, gain, fades and mute. The service checks every value
 * (trims inside the source, gain −60..+24 dB, fades 0..60 s) and its refusal is shown as it is.
 */
export function Inspector({ timeline, block, onChange, onRemove, disabled }: InspectorProps) {
  if (!block) {
    return (
      <section class="panel timeline-inspector" aria-labelledby="timeline-inspector-title">
        <h2 id="timeline-inspector-title">Block</h2>
        <p class="hint">Select a block on a track to change its position, trims, gain, fades or mute.</p>
      </section>
    );
  }
  const label = blockLabel(block, timeline);
  const set = (change: Partial<Block>) => onChange(block.id, change);
  const audioTracks = timeline.tracks.filter((track) => track.kind !== 'video');
  const isPicture = block.source.kind === 'media' && timeline.tracks.find((track) => track.id === block.track)?.kind === 'video';
  return (
    <section class="panel timeline-inspector" aria-labelledby="timeline-inspector-title" key={block.id}>
      <h2 id="timeline-inspector-title">Block: {label}</h2>
      <p class="hint">
        Plays {formatSeconds(block.trim_start)} to {formatSeconds(block.trim_end)} of its source
        {block.source_duration !== null ? ` (${formatSeconds(block.source_duration)} long)` : ''}; on the timeline from {formatSeconds(block.start)} to{' '}
        {formatSeconds(block.end)}.
      </p>
      <div class="row">
        <NumberField label="Start (s)" value={block.start} min={0} seconds onCommit={(start) => set({ start })} disabled={disabled} />
        <NumberField
          label="Trim start (s)"
          value={block.trim_start}
          min={0}
          max={block.trim_end}
          seconds
          onCommit={(trim_start) => set({ trim_start })}
          disabled={disabled}
        />
        <NumberField
          label="Trim end (s)"
          value={block.trim_end}
          min={block.trim_start}
          max={block.source_duration ?? undefined}
          seconds
          onCommit={(trim_end) => set({ trim_end })}
          disabled={disabled}
        />
      </div>
      {isPicture ? null : (
        <div class="row">
          <NumberField label="Gain (dB)" value={block.gain_db} min={-60} max={24} step={0.5} onCommit={(gain_db) => set({ gain_db })} disabled={disabled} />
          <NumberField label="Fade in (s)" value={block.fade_in} min={0} max={60} seconds onCommit={(fade_in) => set({ fade_in })} disabled={disabled} />
          <NumberField label="Fade out (s)" value={block.fade_out} min={0} max={60} seconds onCommit={(fade_out) => set({ fade_out })} disabled={disabled} />
        </div>
      )}
      <div class="row">
        {isPicture ? null : (
          <label>
            Track
            <select value={block.track} disabled={disabled} onChange={(event) => set({ track: event.currentTarget.value })}>
              {audioTracks.map((track) => (
                <option key={track.id} value={track.id}>
                  {track.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label class="timeline-check">
          <input type="checkbox" checked={block.muted} disabled={disabled} onChange={(event) => set({ muted: event.currentTarget.checked })} />
          Mute this block
        </label>
        <button
          type="button"
          disabled={disabled}
          onClick={() => {
            if (confirm(`Remove ${label} from the timeline? Undo brings it back.`)) onRemove(block.id);
          }}
        >
          Remove from timeline
        </button>
      </div>
    </section>
  );
}
