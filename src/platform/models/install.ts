import { lstatSync } from 'node:fs';
import { copyFile, cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ProgramError, runChecked } from '../util/run.js';
import { findModel, testMode, type CatalogModel, type FilePin } from './catalog.js';
import { download, DownloadError, VerificationError } from './download.js';
import { checkFiles, describeProblems, type FileProblem } from './files.js';
import { languagesIn, partialPath, place, withStaging } from './manager.js';

/** The weakest check any installed byte passed. */
export type Verification = 'sha256' | 'size' | 'unverified';

export type InstallResult =
  | { name: string; engine: string; status: 'installed'; path: string; source: string; verification: Verification; languages: string[] }
  | { name: string; engine: string; status: 'incomplete'; source: string; missing_files: string[]; message: string };

export interface InstallOptions {
  /** A folder laid out like ../shared/models; without it the archive is downloaded. */
  from?: string;
  /** Install files that differ from the catalog's pins (a re-published archive), still checking that they load. */
  acceptChanged?: boolean;
  /** Whether the engine can load the staged folder: a problem to report, or undefined. */
  validate?: (model: CatalogModel, dir: string) => Promise<string | undefined>;
  onProgress?: (received: number, total: number | null) => void;
  /** Called as the download ends and unpacking and checking begin. */
  onUnpacking?: () => void;
  onWarning?: (message: string) => void;
  /** Stops the install: downloads and unpacking stop, and nothing of this run is left behind (the partial download included). */
  signal?: AbortSignal;
}

function weakestCheck(pins: readonly FilePin[]): Verification {
  if (pins.every((pin) => pin.sha256 !== null)) return 'sha256';
  return pins.every((pin) => pin.bytes !== null) ? 'size' : 'unverified';
}

const isPinned = (pin: FilePin) => pin.sha256 !== null || pin.bytes !== null;

/** A download is verified by the archive's own pin when it has one, else by the files inside. */
function downloadVerification(model: CatalogModel): Verification {
  return weakestCheck([...(isPinned(model.archive) ? [model.archive] : model.files), ...(model.extras ?? [])]);
}

const acceptHint = (model: CatalogModel) =>
  `A newer Timbre may know the new version; to install it anyway, run: timbre models install ${model.name} --accept-changed (its files are still checked to load)`;

function incomplete(model: CatalogModel, source: string, problems: FileProblem[], message: string): InstallResult {
  return { name: model.name, engine: model.engine, status: 'incomplete', source, missing_files: problems.map((problem) => problem.path), message };
}

/** Copies a file or folder of the source unless absent; symlinks are left behind. */
async function copyPresent(source: string, target: string): Promise<void> {
  const stats = await stat(source).catch(() => undefined);
  if (!stats) return;
  await mkdir(dirname(target), { recursive: true });
  if (stats.isFile()) await copyFile(source, target);
  else if (stats.isDirectory()) await cp(source, target, { recursive: true, filter: (path) => !lstatSync(path).isSymbolicLink() });
}

/** Copies the catalog's files (and the optional ones present) from `<from>/<sharedPath>/` when the required ones check out. */
async function installFromFolder(modelsDir: string, model: CatalogModel, from: string, options: InstallOptions): Promise<InstallResult> {
  const source = join(resolve(from), model.sharedPath);
  if (!(await stat(source).catch(() => undefined))?.isDirectory()) {
    const all = model.files.map((file) => ({ path: file.path, problem: 'missing' }));
    return incomplete(model, source, all, `${model.name}: not in ${resolve(from)} (no ${model.sharedPath}/ folder)`);
  }
  // Cheap check first, so a model with a missing file costs no copying.
  const absent = await checkFiles(source, model.files, false);
  if (absent.length > 0) return incomplete(model, source, absent, `${model.name}: incomplete in ${source}: ${describeProblems(absent)}`);
  return withStaging(modelsDir, model, async (stage) => {
    const ready = join(stage, model.name);
    const extra = [...(model.optional ?? []), ...Object.values(model.languageFiles ?? {}).flat()];
    for (const path of new Set([...model.files.map((file) => file.path), ...extra])) await copyPresent(join(source, path), join(ready, path));
    const problems = await checkFiles(ready, model.files, true);
    if (problems.length > 0) return incomplete(model, source, problems, `${model.name}: unusable in ${source}: ${describeProblems(problems)}`);
    const unloadable = await options.validate?.(model, ready);
    if (unloadable) return incomplete(model, source, [], `${model.name}: unusable in ${source}: ${unloadable}`);
    const path = await place(modelsDir, model, ready);
    return installed(model, path, source, weakestCheck(model.files));
  });
}

function installed(model: CatalogModel, path: string, source: string, verification: Verification): InstallResult {
  return { name: model.name, engine: model.engine, status: 'installed', path, source, verification, languages: languagesIn(model, path) };
}

async function unpack(archive: string, stage: string, model: CatalogModel, signal: AbortSignal | undefined): Promise<string> {
  if (!model.archive.url.endsWith('.tar.bz2')) {
    // A bare file is the model's only file.
    const ready = join(stage, model.name);
    await mkdir(ready);
    await rename(archive, join(ready, model.files[0]!.path));
    return ready;
  }
  try {
    // --no-same-owner: as root, tar would otherwise keep the archive's uid/gid.
    await runChecked('tar', ['--no-same-owner', '-xjf', archive, '-C', stage], { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const hint = error instanceof ProgramError && /bzip2/.test(error.result.stderr) ? ' (install bzip2: apt-get install bzip2)' : '';
    throw new DownloadError(`Unpacking ${model.archive.url} failed: ${(error as Error).message}${hint}`);
  }
  const root = model.archive.rootDir ? join(stage, model.archive.rootDir) : stage;
  if (!(await stat(root).catch(() => undefined))?.isDirectory())
    throw new DownloadError(`${model.name}: ${model.archive.url} does not unpack to ${model.archive.rootDir}/, as the catalog expects`);
  return root;
}

/** Downloads `pin`'s file to `destination`; a pin the user chose to overrule is not checked. */
async function fetchPinned(url: string, destination: string, pin: FilePin, model: CatalogModel, options: InstallOptions) {
  const checked = options.acceptChanged ? { bytes: null, sha256: null } : pin;
  try {
    return await download(url, destination, { ...checked, onProgress: options.onProgress, allowLoopbackHttp: testMode(), signal: options.signal });
  } catch (error) {
    if (error instanceof VerificationError) throw new VerificationError(`${model.name}: ${error.message}. ${acceptHint(model)}`);
    throw error;
  }
}

/** Downloads the model's bare extra files into the unpacked folder. */
async function addExtras(modelsDir: string, model: CatalogModel, ready: string, options: InstallOptions): Promise<void> {
  for (const extra of model.extras ?? []) {
    const partial = extraPartialPath(modelsDir, model, extra.path);
    await fetchPinned(extra.url, partial, extra, model, options);
    await rename(partial, join(ready, extra.path));
  }
}

/** The unpacked files against the catalog: missing ones are fatal, changed ones need --accept-changed. */
async function checkUnpacked(model: CatalogModel, ready: string, options: InstallOptions): Promise<void> {
  const structural = await checkFiles(ready, model.files, false, false);
  if (structural.length > 0) throw new DownloadError(`${model.name}: ${model.archive.url} does not hold a usable model: ${describeProblems(structural)}`);
  const changed = await checkFiles(ready, model.files, true);
  if (changed.length === 0) return;
  const what = describeProblems(changed);
  if (!options.acceptChanged)
    throw new VerificationError(
      `${model.name}: ${model.archive.url} holds files unlike the ones this catalog pins: ${what}. Nothing was installed. ${acceptHint(model)}`,
    );
  options.onWarning?.(`${model.name}: installed with files unlike the catalog's pins, as asked (--accept-changed): ${what}`);
}

const extraPartialPath = (modelsDir: string, model: CatalogModel, path: string) => join(modelsDir, `.${model.name}.${path}.download`);

/** A cancelled install leaves nothing: an interrupted one keeps its partial downloads to resume, a cancelled one is not coming back for them. */
async function installCancellable(modelsDir: string, model: CatalogModel, options: InstallOptions): Promise<InstallResult> {
  try {
    return await installByDownload(modelsDir, model, options);
  } catch (error) {
    if (options.signal?.aborted) {
      const partials = [partialPath(modelsDir, model), ...(model.extras ?? []).map((extra) => extraPartialPath(modelsDir, model, extra.path))];
      await Promise.all(partials.map((path) => rm(path, { force: true })));
    }
    throw error;
  }
}

async function installByDownload(modelsDir: string, model: CatalogModel, options: InstallOptions): Promise<InstallResult> {
  await mkdir(modelsDir, { recursive: true });
  const partial = partialPath(modelsDir, model);
  const fetched = await fetchPinned(model.archive.url, partial, model.archive, model, options);
  options.onUnpacking?.();
  const verification = options.acceptChanged ? 'unverified' : downloadVerification(model);
  if (verification === 'unverified' && !options.acceptChanged)
    options.onWarning?.(`${model.name}: the catalog pins no sha256 for ${model.archive.url}, so this download is unverified (its sha256 is ${fetched.sha256})`);
  try {
    return await withStaging(modelsDir, model, async (stage) => {
      const ready = await unpack(partial, stage, model, options.signal);
      await addExtras(modelsDir, model, ready, options);
      await checkUnpacked(model, ready, options);
      const unloadable = await options.validate?.(model, ready);
      if (unloadable) throw new DownloadError(`${model.name}: ${model.archive.url} unpacked, but the model does not load: ${unloadable}`);
      options.signal?.throwIfAborted();
      const path = await place(modelsDir, model, ready);
      return installed(model, path, model.archive.url, verification);
    });
  } finally {
    // The archive was complete (it passed the download checks), so there is nothing to resume.
    await rm(partial, { force: true });
  }
}

/** Installs one catalog model, replacing an existing install only once the new one checks out. */
export async function installModel(modelsDir: string, name: string, options: InstallOptions = {}): Promise<InstallResult> {
  const model = findModel(name);
  return options.from ? installFromFolder(modelsDir, model, options.from, options) : installCancellable(modelsDir, model, options);
}
