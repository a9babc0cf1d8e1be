import { Waveform, type Span } from '../../components/waveform.js';
import { clock, usedWhole, type Sample, type SamplePart } from './samples.js';

interface SampleCardProps {
  sample: Sample;
  onChange: (sample: Sample) => void;
  onRemove: () => void;
}

const round2 = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * One sample: its waveform with the parts to use as draggable regions, the same parts as number
 * fields (so they can be set from the keyboard), and the words spoken in each part.
 */
export function SampleCard({ sample, onChange, onRemove }: SampleCardProps) {
  // Dragging changes the parts without redrawing; every other change redraws the regions.
  const dragged = (spans: Span[]) => onChange({ ...sample, parts: spans.map((span, i) => ({ ...span, words: sample.parts[i]?.words ?? '' })) });
  const relayout = (parts: SamplePart[]) => onChange({ ...sample, parts, layout: sample.layout + 1 });
  const setPart = (index: number, change: Partial<SamplePart>) => {
    const parts = sample.parts.map((part, i) => (i === index ? { ...part, ...change } : part));
    if ('words' in change) onChange({ ...sample, parts });
    else relayout(parts);
  };
  const seconds = (value: string) => Math.min(sample.duration, Math.max(0, Number(value) || 0));
  const splitLast = () => {
    const last = sample.parts.at(-1);
    if (!last) return relayout([{ start: 0, end: sample.duration, words: '' }]);
    const middle = (last.start + last.end) / 2;
    relayout([...sample.parts.slice(0, -1), { ...last, end: middle }, { start: middle, end: last.end, words: '' }]);
  };

  return (
    <article class="sample" aria-label={sample.label}>
      <div class="row sample-head">
        <h3>{sample.label}</h3>
        <span class="hint">
          {clock(sample.duration)} · {usedWhole(sample) ? 'used whole' : `${sample.parts.length} ${sample.parts.length === 1 ? 'part' : 'parts'} chosen`}
        </span>
        <button type="button" onClick={onRemove} aria-label={`Remove ${sample.label}`}>
          Remove
        </button>
      </div>
      <Waveform
        key={`${sample.id}-${sample.layout}`}
        source={sample.audio}
        label={sample.label}
        regions={sample.parts.map(({ start, end }) => ({ start, end }))}
        onRegions={dragged}
      />
      <p class="hint">Drag or resize the shaded regions, or type the seconds: only these parts are used.</p>
      <ol class="parts">
        {sample.parts.map((part, index) => {
          const name = `${sample.label}, part ${index + 1}`;
          return (
            <li key={index} class="row">
              <label>
                Start (s)
                <input
                  type="number"
                  min={0}
                  max={sample.duration}
                  step={0.1}
                  value={round2(part.start)}
                  aria-label={`${name} start (s)`}
                  onChange={(event) => setPart(index, { start: seconds(event.currentTarget.value) })}
                />
              </label>
              <label>
                End (s)
                <input
                  type="number"
                  min={0}
                  max={sample.duration}
                  step={0.1}
                  value={round2(part.end)}
                  aria-label={`${name} end (s)`}
                  onChange={(event) => setPart(index, { end: seconds(event.currentTarget.value) })}
                />
              </label>
              <label class="words">
                Words spoken (optional)
                <input
                  type="text"
                  value={part.words}
                  aria-label={`${name} words spoken (optional)`}
                  onInput={(event) => setPart(index, { words: event.currentTarget.value })}
                />
              </label>
              {sample.parts.length > 1 ? (
                <button
                  type="button"
                  onClick={() => relayout(sample.parts.filter((_, i) => i !== index))}
                  aria-label={`Remove part ${index + 1} of ${sample.label}`}
                >
                  Remove part
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      <div class="row">
        <button type="button" onClick={splitLast} aria-label={`Split last part of ${sample.label}`}>
          Split last part
        </button>
        <button
          type="button"
          onClick={() => relayout([{ start: 0, end: sample.duration, words: '' }])}
          disabled={usedWhole(sample)}
          aria-label={`Use whole sample ${sample.label}`}
        >
          Use whole sample
        </button>
      </div>
    </article>
  );
}
