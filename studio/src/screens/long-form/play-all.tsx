import { useEffect, useRef, useState } from 'preact/hooks';
import { chunkAudioUrl, type Chunk } from './use-long-form-task.js';
import { sentences } from './words.js';

/** Plays the finished chunks one after another, each in its selected take, through one audio element. */
export function PlayAll({ taskId, chunks }: { taskId: string; chunks: Chunk[] }) {
  const playable = chunks.filter((chunk) => chunk.state === 'completed');
  const [position, setPosition] = useState<number>();
  const player = useRef<HTMLAudioElement>(null);
  const current = position === undefined ? undefined : playable[position];
  const source = current ? chunkAudioUrl(taskId, current) : undefined;

  useEffect(() => {
    if (!source || !player.current) return;
    // Changing the source aborts the previous play(); only a real refusal stops the sequence.
    player.current.play().catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setPosition(undefined);
    });
  }, [source]);

  const toggle = () => {
    if (position === undefined) return setPosition(0);
    player.current?.pause();
    setPosition(undefined);
  };
  const next = () => setPosition((at) => (at !== undefined && at + 1 < playable.length ? at + 1 : undefined));

  return (
    <div class="row play-all">
      <button type="button" onClick={toggle} disabled={playable.length === 0}>
        {position === undefined ? 'Play all' : 'Stop'}
      </button>
      <span aria-live="polite">
        {current && position !== undefined
          ? `Playing sentence ${current.index + 1} (${position + 1} of ${playable.length})`
          : `${playable.length} of ${sentences(chunks.length)} ready`}
      </span>
      <audio ref={player} controls hidden={!current} src={source} onEnded={next} aria-label="All sentences, one after another" />
    </div>
  );
}
