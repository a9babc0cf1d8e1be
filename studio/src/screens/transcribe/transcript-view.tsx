import { useEffect, useMemo, useState } from 'preact/hooks';
import { Waveform } from '../../components/waveform.js';
import { ForDevelopers } from '../../components/for-developers.js';
import { editedSegments, originalTexts } from './edits.js';
import { positionAt, transcriptFiles, type EditedSegment, type Transcript } from './transcript.js';
import { TranscriptText } from './transcript-text.js';

/** Links that save the transcript as edited; their object URLs live as long as the text they hold. */
function Downloads({ transcript, segments, audioName }: { transcript: Transcript; segments: EditedSegment[]; audioName: string }) {
  const files = useMemo(
    () => transcriptFiles(transcript, segments, audioName).map((file) => ({ ...file, url: URL.createObjectURL(new Blob([file.body], { type: file.type })) })),
    [transcript, segments, audioName],
  );
  useEffect(() => () => files.forEach((file) => URL.revokeObjectURL(file.url)), [files]);
  return (
    <div class="row" role="group" aria-label="Downloads">
      {files.map((file) => (
        <a key={file.label} class="transcribe-download" href={file.url} download={file.name}>
          Download {file.label} ({file.name})
        </a>
      ))}
    </div>
  );
}

/**
 * The transcript under the waveform of the uploaded audio: while it plays, the word being spoken
 * (or, without word times, the segment) is marked; a click on a word plays from there. The text
 * can be corrected, and the downloads hold the corrected text.
 */
export function TranscriptView({ transcript, audio }: { transcript: Transcript; audio: File }) {
  const [seconds, setSeconds] = useState(-1);
  const [seek, setSeek] = useState<{ seconds: number }>();
  const [texts, setTexts] = useState(() => originalTexts(transcript));
  const [editing, setEditing] = useState(false);
  const segments = useMemo(() => editedSegments(transcript, texts), [transcript, texts]);
  const timed = transcript.segments.some((segment) => segment.words.length > 0);
  const scored = transcript.segments.some((segment) => segment.words.some((word) => word.probability !== null));
  const threshold = `${Math.round(transcript.unsure_below * 100)} %`;

  return (
    <section class="panel transcribe-result" aria-label="Transcript">
      <p class="hint">
        Language {transcript.language} · {transcript.duration.toFixed(1)} s{timed ? ' · click a word to play from there' : ''}
      </p>
      <Waveform source={audio} label={audio.name} onTime={setSeconds} seek={seek} />
      <Downloads transcript={transcript} segments={segments} audioName={audio.name} />
      <div class="row transcript-head">
        <h2>Text</h2>
        {transcript.segments.length > 0 ? (
          <button type="button" onClick={() => setEditing(!editing)} aria-pressed={editing}>
            {editing ? 'Done correcting' : 'Correct the text'}
          </button>
        ) : null}
      </div>
      {scored && !editing ? (
        <p class="hint transcript-legend">
          Words <span class="unsure-sample">underlined with dots</span> are ones the recognizer was unsure of (less than {threshold} sure): check them against
          the audio. Pointing at one shows how sure it was.
        </p>
      ) : null}
      {transcript.segments.length === 0 ? (
        <p class="transcript">{transcript.text || 'No speech was recognized.'}</p>
      ) : (
        <TranscriptText
          segments={segments}
          unsureBelow={transcript.unsure_below}
          at={positionAt(segments, seconds)}
          editing={editing}
          onSeek={(to) => setSeek({ seconds: to })}
          onEdit={(index, text) => setTexts(texts.map((before, position) => (position === index ? text : before)))}
        />
      )}
      <ForDevelopers>
        <p>
          Recognized by <code>{transcript.recognizer}</code> through <code>POST /api/transcribe</code> with <code>timestamps=word</code>
          {timed ? '' : ' (this recognizer gives no word times)'}. Each word comes with its <code>probability</code> (null when the recognizer gives none);
          words under the answer&apos;s <code>unsure_below</code> ({transcript.unsure_below}) are marked. SRT and VTT are written in the page from the segments,
          at their recognized times.
        </p>
      </ForDevelopers>
    </section>
  );
}
