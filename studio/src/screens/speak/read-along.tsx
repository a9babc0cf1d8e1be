import { useEffect, useRef, useState } from 'preact/hooks';
import type { TimedWord } from './use-word-timings.js';

/** The word being spoken at `seconds`: the last one started by then, none before the first. */
export function wordAt(words: readonly TimedWord[], seconds: number): number {
  let low = 0;
  let high = words.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((words[middle]?.start ?? Infinity) <= seconds) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** Follows the audio's position: on every `timeupdate`, and on every frame while it plays (timeupdate comes only a few times a second). */
function useSpokenWord(audio: { current: HTMLAudioElement | null }, words: readonly TimedWord[]): number {
  const [spoken, setSpoken] = useState(-1);
  useEffect(() => {
    const element = audio.current;
    if (!element || words.length === 0) return;
    let frame = 0;
    const follow = () => setSpoken(wordAt(words, element.currentTime));
    const tick = () => {
      follow();
      frame = requestAnimationFrame(tick);
    };
    const playing = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const stopped = () => {
      cancelAnimationFrame(frame);
      follow();
    };
    follow();
    if (!element.paused) playing();
    element.addEventListener('timeupdate', follow);
    element.addEventListener('seeked', follow);
    element.addEventListener('play', playing);
    element.addEventListener('pause', stopped);
    element.addEventListener('ended', stopped);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('timeupdate', follow);
      element.removeEventListener('seeked', follow);
      element.removeEventListener('play', playing);
      element.removeEventListener('pause', stopped);
      element.removeEventListener('ended', stopped);
    };
  }, [audio.current, words]);
  return spoken;
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => Math.min(index + 1, count - 1),
  ArrowLeft: (index) => Math.max(index - 1, 0),
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * The spoken words of the result, the one being said marked (underlined and outlined, not by colour
 * alone, and `aria-current`); a word plays from its start when chosen. One tab stop: the arrow keys
 * move between the words. Nothing is announced as the words go by.
 */
export function ReadAlong({ audio, words }: { audio: { current: HTMLAudioElement | null }; words: readonly TimedWord[] }) {
  const spoken = useSpokenWord(audio, words);
  const [focused, setFocused] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  if (words.length === 0) return null;
  // A new result may have fewer words than the one the focus was on.
  const tabStop = focused < words.length ? focused : 0;

  const play = (index: number) => {
    const element = audio.current;
    const word = words[index];
    if (!element || !word) return;
    element.currentTime = word.start;
    void element.play().catch(() => undefined);
  };
  const move = (event: KeyboardEvent, index: number) => {
    const next = MOVES[event.key]?.(index, words.length);
    if (next === undefined) return;
    event.preventDefault();
    setFocused(next);
    list.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  return (
    <section class="read-along" aria-label="Read-along">
      <p class="hint">The word being spoken is underlined; choose a word to play from it.</p>
      <div ref={list} class="read-along-words">
        {words.map((word, index) => (
          <button
            key={`${index}-${word.start}`}
            type="button"
            class="read-along-word"
            aria-current={index === spoken ? 'true' : undefined}
            tabIndex={index === tabStop ? 0 : -1}
            onFocus={() => setFocused(index)}
            onKeyDown={(event) => move(event, index)}
            onClick={() => play(index)}
          >
            {word.text}
          </button>
        ))}
      </div>
    </section>
  );
}
