import { useEffect, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import { useTask } from '../../components/use-task.js';
import { generateAudio } from '../speak/generate.js';

type Voice = Schemas['Voice'];

/** What a preview says: a text, with the dictionaries to apply to it. */
export interface PreviewRequest {
  text: string;
  pronunciation_ids?: string[];
}

export interface Preview {
  url: string;
  /** What plays: "NASA, before" or "NASA, after". */
  label: string;
}

/**
 * Speaks one text at a time for the rules' play buttons, in the chosen voice, and keeps the audio of
 * the last one to play (its object URL released when the next replaces it).
 */
export function useRulePreview() {
  const speaking = useTask();
  const [preview, setPreview] = useState<Preview>();
  const url = useRef<string | undefined>(undefined);
  useEffect(
    () => () => {
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );

  const play = async (voice: Voice, language: string, label: string, request: PreviewRequest) => {
    const audio = await speaking.run(() => generateAudio(voice.type, { voice_id: voice.id, language, format: 'mp3', ...request }));
    if (!audio) return;
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = URL.createObjectURL(audio);
    setPreview({ url: url.current, label });
  };
  return { play, preview, busy: speaking.busy, error: speaking.error };
}
