import { useEffect, useMemo, useState } from 'preact/hooks';
import { Waveform } from '../../components/waveform.js';
import { positionAt, transcriptFiles, type Transcript } from './transcript.js';

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Links that save the transcript's files; their object URLs live as long as the transcript shown. */
function Downloads({ transcript, audioName }: { transcript: Transcript; audioName: string }) {
  const files = useMemo(
    () => transcriptFiles(transcript, audioName).map((file) => ({ ...file, url: URL.createObjectURL(new Blob([file.body], { type: file.type })) })),
    [transcript, audioName],
  );
  useEffect(() => () => files.forEach((file) => URL.revokeObjectURL(file.url)), [files]);
  return (
    <div class="row" role="group" aria-label="Downloads">
      {files.map((file) => (
        <a key={file.label} class="transcribe-download" href={file.url} download={file.name} aria-label={`Download ${file.label} (${file.name})`}>
          Download {file.label}
        </a>
      ))}
    </div>
  );
}

/**
 * The transcript under the waveform of the uploaded audio: while it plays, the word being spoken
 * (or, without word times, the segment) is marked.
 */
export function TranscriptView({ transcript, audio }: { transcript: Transcript; audio: File }) {
  const [seconds, setSeconds] = useState(-1);
  const at = positionAt(transcript.segments, seconds);
  const timed = transcript.segments.some((segment) => segment.words.length > 0);

  return (
    <section class="panel transcribe-result" aria-label="Transcript">
      <p class="hint">
        {transcript.recognizer} · {transcript.language} · {transcript.duration.toFixed(1)} s{timed ? '' : ' · no word times from this recognizer'}
      </p>
      <Waveform source={audio} label={audio.name} onTime={setSeconds} />
      <Downloads transcript={transcript} audioName={audio.name} />
      <h2>Text</h2>
      {transcript.segments.length === 0 ? (
        <p class="transcript">{transcript.text || 'No speech was recognized.'}</p>
      ) : (
        <div class="transcript">
          {transcript.segments.map((segment, index) => (
            <p key={`${segment.start}-${index}`} class={index === at.segment && segment.words.length === 0 ? 'current' : undefined}>
              <span class="transcript-time">{clock(segment.start)}</span>{' '}
              {segment.words.length === 0
                ? segment.text.trim()
                : segment.words.map((word, position) =>
                    index === at.segment && position === at.word ? (
                      <mark key={position} class="current">
                        {word.word.trim()}{' '}
                      </mark>
                    ) : (
                      <span key={position}>{word.word.trim()} </span>
                    ),
                  )}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}
