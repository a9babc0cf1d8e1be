/**
 * The mix as Web Audio plays it: every audible block's source at its place on the timeline, with
 * its trims, gain and linear fades, as the service's render mixes it (without its peak limiter).
 */
import type { Block, Timeline } from './model.js';
import { sourceKey, type SourceAudio } from './sources.js';

/** Blocks that are heard: neither the block nor its track is muted, and not on the picture track. */
export function audibleBlocks(timeline: Timeline): Block[] {
  const silent = new Set(timeline.tracks.filter((track) => track.muted || track.kind === 'video').map((track) => track.id));
  return timeline.blocks.filter((block) => !block.muted && !silent.has(block.track));
}

/** The block's level `t` seconds into it: its gain, ramped up by the fade-in and down by the fade-out. */
function levelAt(block: Block, t: number): number {
  const length = block.trim_end - block.trim_start;
  const fadeIn = block.fade_in > 0 ? t / block.fade_in : 1;
  const fadeOut = block.fade_out > 0 ? (length - t) / block.fade_out : 1;
  return 10 ** (block.gain_db / 20) * Math.max(0, Math.min(1, fadeIn, fadeOut));
}

/**
 * Starts every audible block that has not ended by timeline second `from`, so that `from` plays at
 * the context's time `at`. Answers the started nodes (stopping them stops the mix).
 */
export function scheduleMix(
  context: BaseAudioContext,
  timeline: Timeline,
  taskId: string,
  audio: ReadonlyMap<string, SourceAudio>,
  from: number,
  at: number,
): AudioBufferSourceNode[] {
  const nodes: AudioBufferSourceNode[] = [];
  for (const block of audibleBlocks(timeline)) {
    const buffer = audio.get(sourceKey(taskId, block))?.buffer;
    const length = block.trim_end - block.trim_start;
    const into = Math.max(0, from - block.start);
    if (!buffer || into >= length) continue;
    const when = at + Math.max(0, block.start - from);
    const gain = context.createGain();
    gain.gain.setValueAtTime(levelAt(block, into), when);
    const corners = [block.fade_in, length - block.fade_out, length].filter((t) => t > into).sort((a, b) => a - b);
    for (const t of corners) gain.gain.linearRampToValueAtTime(levelAt(block, t), when + (t - into));
    gain.connect(context.destination);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(gain);
    source.start(when, block.trim_start + into, length - into);
    nodes.push(source);
  }
  return nodes;
}
