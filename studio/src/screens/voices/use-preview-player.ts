import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText, ok } from '../../api.js';
import { useJobOfKind } from './use-job-of-kind.js';
import type { Voice } from './voice-text.js';

export interface Playing {
  voiceId: string;
  src: string;
  /** The sentence a freshly made preview speaks (X-Preview-Text). */
  text?: string;
}

/** The answer's preview text header, which the service percent-encodes. */
function previewText(response: Response): string | undefined {
  const header = response.headers.get('X-Preview-Text');
  if (!header) return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/**
 * One preview plays at a time, and one is made at a time (making one is a `preview` job, and the
 * service allows few of them a minute). A voice with a stored preview plays it from its
 * `preview_url`; a new one plays from the WAV the request answers with.
 */
export function usePreviewPlayer(onMade: (voiceId: string) => void) {
  const [playing, setPlaying] = useState<Playing | undefined>();
  const [makingId, setMakingId] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ voiceId: string; message: string } | undefined>();
  const tracker = useJobOfKind('preview');
  const blobUrl = useRef<string | undefined>(undefined);

  const show = (next: Playing | undefined, madeUrl?: string) => {
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
    blobUrl.current = madeUrl;
    setPlaying(next);
  };
  useEffect(() => () => blobUrl.current && URL.revokeObjectURL(blobUrl.current), []);

  const play = (voice: Voice) => {
    setFailure(undefined);
    if (voice.preview_url) show({ voiceId: voice.id, src: voice.preview_url });
  };

  const make = async (voice: Voice) => {
    setFailure(undefined);
    setMakingId(voice.id);
    tracker.start();
    try {
      const pending = api.POST('/api/voices/{id}/generate-preview', { params: { path: { id: voice.id } }, body: {}, parseAs: 'blob' });
      const audio = await ok(pending);
      const url = URL.createObjectURL(audio);
      show({ voiceId: voice.id, src: url, text: previewText((await pending).response) }, url);
      onMade(voice.id);
    } catch (error) {
      setFailure({ voiceId: voice.id, message: errorText(error) });
    } finally {
      tracker.stop();
      setMakingId(undefined);
    }
  };

  return { playing, makingId, job: tracker.job, failure, play, make, stop: () => show(undefined) };
}

export type PreviewPlayer = ReturnType<typeof usePreviewPlayer>;
