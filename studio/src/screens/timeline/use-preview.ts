import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { audibleBlocks, scheduleMix } from './mix-preview.js';
import type { Timeline } from './model.js';
import { sourceAudio, sourceKey, type SourceAudio } from './sources.js';

export type PreviewState = 'stopped' | 'loading' | 'playing';

/** Sound starts this long after Play, so the first block is not cut while the graph is built. */
const START_DELAY_S = 0.05;

/**
 * Plays the timeline in the browser from the playhead, without a render: the sources are fetched
 * and decoded once, then scheduled on one AudioContext. An edit while playing plays on from where
 * the playhead is, with the edit. `unheard` counts blocks whose audio the studio has no copy of.
 */
export function usePreview(taskId: string, timeline: Timeline) {
  const [position, setPosition] = useState(0);
  const [state, setState] = useState<PreviewState>('stopped');
  const [unheard, setUnheard] = useState(0);
  const context = useRef<AudioContext | undefined>(undefined);
  const nodes = useRef<AudioBufferSourceNode[]>([]);
  const frame = useRef(0);
  const latest = useRef(timeline);
  latest.current = timeline;
  const positionNow = useRef(0);
  // Each play or pause counts up, so a play still fetching audio when another starts gives way.
  const attempt = useRef(0);

  const silence = useCallback(() => {
    attempt.current++;
    cancelAnimationFrame(frame.current);
    for (const node of nodes.current) node.stop();
    nodes.current = [];
  }, []);

  const moveTo = useCallback((seconds: number) => {
    positionNow.current = seconds;
    setPosition(seconds);
  }, []);

  const play = useCallback(
    async (from: number) => {
      silence();
      const mine = attempt.current;
      setState('loading');
      context.current ??= new AudioContext();
      const audio = context.current;
      await audio.resume();
      const blocks = audibleBlocks(latest.current);
      const loaded = await Promise.all(
        blocks.map(async (block): Promise<[string, SourceAudio | undefined]> => [sourceKey(taskId, block), await sourceAudio(taskId, block)]),
      );
      if (mine !== attempt.current) return;
      const sources = new Map(loaded.flatMap(([key, decoded]): [string, SourceAudio][] => (decoded ? [[key, decoded]] : [])));
      setUnheard(loaded.filter(([, decoded]) => !decoded).length);
      const start = from >= latest.current.duration ? 0 : from;
      const at = audio.currentTime + START_DELAY_S;
      nodes.current = scheduleMix(audio, latest.current, taskId, sources, start, at);
      setState('playing');
      const tick = () => {
        const seconds = Math.max(start, start + audio.currentTime - at);
        if (seconds >= latest.current.duration) {
          silence();
          moveTo(latest.current.duration);
          return setState('stopped');
        }
        moveTo(seconds);
        frame.current = requestAnimationFrame(tick);
      };
      tick();
    },
    [taskId, silence, moveTo],
  );

  const pause = useCallback(() => {
    silence();
    setState('stopped');
  }, [silence]);

  const toggle = useCallback(() => {
    if (state === 'stopped') void play(positionNow.current);
    else pause();
  }, [state, play, pause]);

  const seek = useCallback(
    (seconds: number) => {
      moveTo(seconds);
      if (state === 'playing') void play(seconds);
    },
    [state, play, moveTo],
  );

  // An edit while playing is heard at once: the mix is scheduled again from the playhead.
  useEffect(() => {
    if (state === 'playing') void play(positionNow.current);
  }, [timeline]);

  useEffect(
    () => () => {
      silence();
      void context.current?.close();
    },
    [silence],
  );

  return { position, state, unheard, toggle, seek };
}
