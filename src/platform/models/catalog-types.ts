/** The shape of a catalog entry (see catalog.ts for the verification policy). */

export interface FilePin {
  bytes: number | null;
  sha256: string | null;
}

export interface CatalogFile extends FilePin {
  /** Path inside the model folder (and inside the archive's root folder). */
  path: string;
  /** Other published versions of the file that serve as well (Silero VAD's upstream v5 export). */
  alternatives?: { bytes: number; sha256: string; what: string }[];
}

export interface CatalogArchive extends FilePin {
  /** `.tar.bz2` is unpacked; anything else is the model's single file itself. */
  url: string;
  /** The folder the archive unpacks to; its contents become the model folder. */
  rootDir?: string;
}

export interface CatalogModel {
  name: string;
  /** The engine family; a string, as a test catalog may name one this build does not know (the registry checks it with isNeuralEngineId). */
  engine: string;
  kind: EngineKind;
  description: string;
  license: string;
  licenseNote?: string;
  /** BCP-47 tags the model can speak or hear with all its files; `*` means language-independent. */
  languages: string[];
  /** Files a language needs beyond `files`; the language is offered only while they are present. */
  languageFiles?: Record<string, string[]>;
  /** Files and folders used when present (lexicons, espeak-ng-data); `--from` copies them too. */
  optional?: string[];
  archive: CatalogArchive;
  /** Bare files published apart from the archive that belong in the model folder (ZipVoice's vocoder). */
  extras?: (CatalogFile & { url: string })[];
  /** The files without which the model does not load. */
  files: CatalogFile[];
  /** Folder holding this model's files in a `../shared/models`-style source (`--from`). */
  sharedPath: string;
}

/** What an engine does; every engine and catalog model has one. */
export type EngineKind = 'synthesizer' | 'recognizer' | 'voiceprint' | 'vad';
