import { useEffect, useState } from 'preact/hooks';
import { Peaks } from '../../components/waveform.js';
import type { Block } from './model.js';
import { PEAKS_PER_SECOND, sourceAudio, sourceKey, type SourceAudio } from './sources.js';

/** The block's part of its source as a waveform, drawn once its audio is decoded (nothing before, or without a copy). */
export function BlockWaveform({ taskId, block, width, height }: { taskId: string; block: Block; width: number; height: number }) {
  const [audio, setAudio] = useState<SourceAudio>();
  const key = sourceKey(taskId, block);
  useEffect(() => {
    let shown = true;
    void sourceAudio(taskId, block).then((decoded) => shown && setAudio(decoded));
    return () => void (shown = false);
    // The source, not the block's place, decides what is fetched.
  }, [key]);
  if (!audio) return null;
  return <Peaks peaks={audio.peaks} perSecond={PEAKS_PER_SECOND} from={block.trim_start} to={block.trim_end} width={width} height={height} />;
}
