/**
 * Reads a voice archive (format: voice-archive-format.ts) from a zip file on disk without holding
 * it in memory. yauzl reads the central directory and inflates entries with zlib's asynchronous
 * streams (off the main thread); each entry goes straight to a file in a work folder.
 *
 * Sizes are checked twice: the sizes entries declare, before anything is inflated (an honest
 * archive that is too large is refused at once), and the bytes inflation really yields, counted as
 * they come (yauzl's `validateEntrySizes` also fails an entry that inflates past its declared size),
 * so a zip bomb with forged sizes stops after the few bytes it declares.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { readWavInfo } from '../../platform/audio/wav.js';
import {
  FILE_ENTRY,
  MANIFEST,
  SAMPLE_ENTRY,
  isUnsafeEntryName,
  parseManifest,
  sampleEntry,
  voiceFileEntry,
  type ArchiveProblem,
  type Manifest,
} from './archive-format.js';
import { renderingFileNames } from '../../platform/speech/voice-rendering.js';
import { errorText } from '../../platform/errors.js';

/** Entries in the central directory; a full archive has at most 1 + 1000 × (20 + 8) plus folders. */
export const MAX_ENTRIES = 50_000;
export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Largest sample or other voice file. */
export const MAX_ENTRY_BYTES = 100 * 1024 * 1024;

export interface ArchiveLimits {
  /** Bytes the entries read may inflate to, together. */
  maxExpandedBytes: number;
}

export interface MeasuredSample {
  duration: number;
  sampleRate: number;
}

export interface ReadArchive {
  /** Present when the manifest itself is valid; the archive can be imported only without problems. */
  manifest?: Manifest;
  /** Duration and rate of every readable sample the manifest names, by entry name. */
  samples: Map<string, MeasuredSample>;
  problems: ArchiveProblem[];
}

/** An entry the reader takes, with the most it may inflate to. */
interface Wanted {
  entry: Entry;
  name: string;
  limit: number;
}

/** A check on an entry failed while it was inflating. */
class EntryProblem extends Error {
  constructor(readonly problem: ArchiveProblem) {
    super(problem.message);
  }
}

/** Bytes all entries may still inflate to. */
class InflateBudget {
  private remaining: number;

  constructor(readonly limit: number) {
    this.remaining = limit;
  }

  take(bytes: number): boolean {
    this.remaining -= bytes;
    return this.remaining >= 0;
  }
}

/** Where readArchive puts a voice's files: its samples as `<n>.wav` and its other files by name. */
export function extractedVoiceFolder(dir: string, voiceId: string): string {
  return join(dir, voiceId);
}

/**
 * Reads and checks the archive at `zipPath`, extracting what the manifest names into `dir` (which
 * the caller made and removes). Nothing else is written; `problems` says why the archive cannot be
 * imported. Errors of the server's own disk are thrown, not reported as problems.
 */
export async function readArchive(zipPath: string, dir: string, limits: ArchiveLimits): Promise<ReadArchive> {
  const problems: ArchiveProblem[] = [];
  const samples = new Map<string, MeasuredSample>();
  const zip = await openZip(zipPath, problems);
  if (!zip) return { samples, problems };
  try {
    const wanted = await listEntries(zip, limits, problems);
    if (!wanted) return { samples, problems };
    const budget = new InflateBudget(limits.maxExpandedBytes);
    const manifestEntry = wanted.get(MANIFEST);
    if (!manifestEntry) {
      problems.push({ code: 'manifest_missing', message: `The archive has no ${MANIFEST}` });
      return { samples, problems };
    }
    const chunks: Buffer[] = [];
    const collect = () =>
      new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          chunks.push(chunk);
          done();
        },
      });
    if (!(await inflate(zip, manifestEntry, budget, problems, collect))) return { samples, problems };
    const manifest = parseManifest(Buffer.concat(chunks), problems);
    if (!manifest) return { samples, problems };
    await extractVoices(zip, manifest, wanted, { dir, budget, samples, problems });
    return { manifest, samples, problems };
  } finally {
    zip.close();
  }
}

async function openZip(path: string, problems: ArchiveProblem[]): Promise<ZipFile | undefined> {
  try {
    // Names are decoded below, so that an unsafe one is reported as a problem instead of failing the read.
    const zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
    // Once the entries are listed nothing listens for the file's own errors; reads report theirs to their streams.
    zip.on('error', () => undefined);
    return zip;
  } catch (error) {
    if (isSystemError(error)) throw error;
    problems.push({ code: 'archive_unreadable', message: `Not a readable zip file: ${errorText(error)}` });
    return undefined;
  }
}

/**
 * The entries the reader takes, by name, checked on what the central directory declares: names
 * that could leave a folder, duplicates, methods other than store and deflate, and sizes.
 */
async function listEntries(zip: ZipFile, limits: ArchiveLimits, problems: ArchiveProblem[]): Promise<Map<string, Wanted> | undefined> {
  if (zip.entryCount > MAX_ENTRIES) {
    problems.push({ code: 'too_many_entries', message: `The archive has ${zip.entryCount} entries; at most ${MAX_ENTRIES} are read` });
    return undefined;
  }
  const wanted = new Map<string, Wanted>();
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      if (isUnsafeEntryName(name)) {
        problems.push({ code: 'unsafe_entry', message: `The entry name ${JSON.stringify(name)} could leave its folder` });
        continue;
      }
      const limit = name === MANIFEST ? MAX_MANIFEST_BYTES : SAMPLE_ENTRY.test(name) || FILE_ENTRY.test(name) ? MAX_ENTRY_BYTES : 0;
      if (limit === 0) continue;
      if (wanted.has(name)) problems.push({ code: 'duplicate_entry', message: `${name} is in the archive twice` });
      else if (entry.isEncrypted() || (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)) {
        problems.push({ code: 'entry_unsupported', message: `${name} is encrypted or compressed with a method other than deflate` });
      } else if (entry.uncompressedSize > limit) {
        problems.push({ code: 'entry_too_large', message: `${name} declares ${entry.uncompressedSize} bytes; at most ${limit} are allowed` });
      } else if ((declared += entry.uncompressedSize) > limits.maxExpandedBytes) {
        problems.push(tooMuchInAll(limits.maxExpandedBytes));
        break;
      } else {
        wanted.set(name, { entry, name, limit });
      }
    }
  } catch (error) {
    if (isSystemError(error)) throw error;
    problems.push({ code: 'archive_unreadable', message: `Not a readable zip file: ${errorText(error)}` });
  }
  return problems.length > 0 ? undefined : wanted;
}

async function extractVoices(
  zip: ZipFile,
  manifest: Manifest,
  wanted: ReadonlyMap<string, Wanted>,
  into: { dir: string; budget: InflateBudget; samples: Map<string, MeasuredSample>; problems: ArchiveProblem[] },
): Promise<void> {
  const { budget, samples, problems } = into;
  const seen = new Set<string>();
  for (const voice of manifest.voices) {
    if (seen.has(voice.id)) problems.push({ code: 'duplicate_voice', message: `Voice ${voice.id} appears twice in the manifest` });
    seen.add(voice.id);
    const folder = extractedVoiceFolder(into.dir, voice.id);
    await mkdir(folder, { recursive: true });
    for (const [index, sample] of voice.samples.entries()) {
      const expected = sampleEntry(voice.id, index + 1);
      const entry = wanted.get(expected);
      const path = join(folder, `${index + 1}.wav`);
      if (sample.file !== expected)
        problems.push({ code: 'sample_name_invalid', message: `Sample ${index + 1} of ${voice.id} must be ${expected}, not ${sample.file}` });
      else if (!entry) problems.push({ code: 'sample_missing', message: `${expected} is named in the manifest but not in the archive` });
      else if (await inflate(zip, entry, budget, problems, () => createWriteStream(path))) {
        const measured = await measureSample(expected, path, problems);
        if (measured) samples.set(expected, measured);
      }
    }
    for (const name of voice.files ?? []) {
      const entry = wanted.get(voiceFileEntry(voice.id, name));
      if (entry) await inflate(zip, entry, budget, problems, () => createWriteStream(join(folder, name)));
      else problems.push({ code: 'file_missing', message: `${voiceFileEntry(voice.id, name)} is named in the manifest but not in the archive` });
    }
    for (const name of renderingFileNames(voice.settings).filter((used) => !(voice.files ?? []).includes(used))) {
      problems.push({ code: 'file_missing', message: `Voice ${voice.id} speaks with ${name}, which the archive does not carry` });
    }
  }
}

/**
 * Inflates an entry into the writable `sink` makes, counting the bytes inflation really yields
 * against the entry's limit and the archive's budget. False, with a problem, when it cannot.
 */
async function inflate(zip: ZipFile, wanted: Wanted, budget: InflateBudget, problems: ArchiveProblem[], sink: () => Writable): Promise<boolean> {
  let inflated = 0;
  const counter = new Transform({
    transform: (chunk: Buffer, _encoding, done) => {
      inflated += chunk.length;
      if (inflated > wanted.limit)
        return done(new EntryProblem({ code: 'entry_too_large', message: `${wanted.name} inflates to more than ${wanted.limit} bytes` }));
      if (!budget.take(chunk.length)) return done(new EntryProblem(tooMuchInAll(budget.limit)));
      done(null, chunk);
    },
  });
  try {
    const source = await zip.openReadStreamPromise(wanted.entry);
    await pipeline(source, counter, sink());
    return true;
  } catch (error) {
    if (isSystemError(error)) throw error;
    problems.push(error instanceof EntryProblem ? error.problem : damaged(wanted, error));
    return false;
  }
}

function tooMuchInAll(limit: number): ArchiveProblem {
  return { code: 'archive_too_large', message: `The archive's entries inflate to more than ${limit} bytes together` };
}

/** zlib reports corrupt deflate data with a `Z_…` code; yauzl reports a size that does not match the declared one without a code. */
function damaged(wanted: Wanted, error: unknown): ArchiveProblem {
  const zlibCode = error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Z_');
  if (zlibCode) return { code: 'entry_corrupt', message: `${wanted.name} is damaged: its compressed data does not inflate` };
  return { code: 'entry_size_mismatch', message: `${wanted.name} does not inflate to the ${wanted.entry.uncompressedSize} bytes it declares` };
}

async function measureSample(name: string, path: string, problems: ArchiveProblem[]): Promise<MeasuredSample | undefined> {
  try {
    const info = await readWavInfo(path);
    if (info.frames === 0 || info.sampleRate <= 0) throw new Error('no audio');
    return { duration: info.duration, sampleRate: info.sampleRate };
  } catch (error) {
    if (isSystemError(error)) throw error;
    problems.push({ code: 'sample_not_wav', message: `${name} is not a usable WAV file: ${errorText(error)}` });
    return undefined;
  }
}

/** A failure of the server's own files (a full disk, say), which is no fault of the archive; it names paths, so its words never reach the problems. */
function isSystemError(error: unknown): boolean {
  return error instanceof Error && 'syscall' in error;
}
