import type { EditedSegment, EditedWord } from './transcript.js';

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The word's probability when it is under `unsureBelow` (the recognizer doubted it), else undefined. */
function doubted(word: EditedWord, unsureBelow: number): number | undefined {
  return typeof word.probability === 'number' && word.probability < unsureBelow ? word.probability : undefined;
}

interface TranscriptTextProps {
  segments: EditedSegment[];
  /** Words whose probability is below this are marked as unsure. */
  unsureBelow: number;
  /** The segment and word being spoken (-1 when none). */
  at: { segment: number; word: number };
  editing: boolean;
  onSeek: (seconds: number) => void;
  onEdit: (segment: number, text: string) => void;
}

/**
 * The segments of the transcript: each starts with its time (a button that plays from there), then
 * its words, each a button that plays from the word when its time is known; a word the recognizer
 * doubted is underlined with dots, its probability in the title and, for screen readers, in its name.
 * While correcting, each segment is a text field.
 */
export function TranscriptText({ segments, unsureBelow, at, editing, onSeek, onEdit }: TranscriptTextProps) {
  return (
    <div class="transcript">
      {segments.map((segment, index) => (
        <p key={`${segment.start}-${index}`} class={index === at.segment && segment.words.every((word) => word.start === undefined) ? 'current' : undefined}>
          <button type="button" class="transcript-time" onClick={() => onSeek(segment.start)} aria-label={`Play from ${clock(segment.start)}`}>
            {clock(segment.start)}
          </button>{' '}
          {editing ? (
            <textarea
              class="transcript-edit"
              rows={2}
              value={segment.text}
              aria-label={`Text from ${clock(segment.start)}`}
              onInput={(event) => onEdit(index, event.currentTarget.value)}
            />
          ) : (
            segment.words.map((word, position) => {
              const current = index === at.segment && position === at.word;
              if (word.start === undefined) return <span key={position}>{word.word} </span>;
              const start = word.start;
              const doubtedProbability = doubted(word, unsureBelow);
              const percent = doubtedProbability === undefined ? undefined : `${Math.round(doubtedProbability * 100)} %`;
              return (
                <span key={position}>
                  <button
                    type="button"
                    class={['word', current ? 'current' : '', percent ? 'unsure' : ''].filter(Boolean).join(' ')}
                    title={percent ? `The recognizer was unsure of this word (${percent})` : undefined}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => onSeek(start)}
                  >
                    {word.word}
                    {percent ? <span class="visually-hidden"> (unsure, {percent})</span> : null}
                  </button>{' '}
                </span>
              );
            })
          )}
        </p>
      ))}
    </div>
  );
}
