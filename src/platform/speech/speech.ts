import { Type } from 'typebox';
import { type AudioFormat } from '../audio/encode.js';

export * from './speaking-voice.js';
export { SpeechRequestSchema, type SpeechRequest } from './speech-plan.js';
export { speakToFile, type AudioSink, type SpeakingJob, type SpeakingStages, type SpokenFile } from './speak-to-file.js';

export const GENERATION_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'aac', 'pcm'] as const satisfies readonly AudioFormat[];

export type GenerationFormat = (typeof GENERATION_FORMATS)[number];
export const GenerationFormatSchema = Type.Enum(GENERATION_FORMATS);
