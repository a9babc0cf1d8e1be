import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ProgramError, runChecked } from '../util/run.js';
import { catalog, findModel, testMode, type CatalogFile, type CatalogModel } from './catalog.js';
import { download, DownloadError } from './download.js';
import { checkFiles, describeProblems, directorySize, type FileProblem } from './files.js';

export type ModelState = 'installed' | 'incomplete' | 'not installed';

export interface ModelStatus {
  model: CatalogModel;
  state: ModelState;
  sizeBytes: number;
  problems: FileProblem[];
}

/** An installed (possibly incomplete) model as `GET /api/system/info` reports it. */
export interface InstalledModel {
  name: string;
  engine: string;
  kind: string;
  size_bytes: number;
  license: string;
  languages: string[];
  complete: boolean;
  /** Files missing or not of the expected size. */
  missing_files: string[];
}

/** The weakest check any installed byte passed. */
export type Verification = 'sha256' | 'size' | 'unverified';

export type InstallResult =
  | { name: string; engine: string; status: 'installed'; path: string; source: string; verification: Verification }
  | { name: string; engine: string; status: 'incomplete'; source: string; missing_files: string[]; message: string };

export interface InstallOptions {
  /** A folder laid out like ../shared/models; without it the archive is downloaded. */
  from?: string;
  onProgress?: (received: number, total: number | null) => void;
  onWarning?: (message: string) => void;
}

/** Model names reach the file system only through here, and only as catalog names. */
function modelDir(modelsDir: string, model: CatalogModel): string {
  return join(modelsDir, model.name);
}

/** Where an interrupted download waits to be resumed: hidden, so it never looks like a model. */
function partialPath(modelsDir: string, model: CatalogModel): string {
  return join(modelsDir, `.${model.name}.download`);
}

export async function modelStatus(modelsDir: string, model: CatalogModel): Promise<ModelStatus> {
  const dir = modelDir(modelsDir, model);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory()) return { model, state: 'not installed', sizeBytes: 0, problems: [] };
  const problems = await checkFiles(dir, model.files, false);
  return { model, state: problems.length > 0 ? 'incomplete' : 'installed', sizeBytes: await directorySize(dir), problems };
}

export async function listModels(modelsDir: string): Promise<ModelStatus[]> {
  return Promise.all(catalog().map((model) => modelStatus(modelsDir, model)));
}

export async function installedModels(modelsDir: string): Promise<InstalledModel[]> {
  const statuses = await listModels(modelsDir);
  return statuses
    .filter((status) => status.state !== 'not installed')
    .map(({ model, sizeBytes, problems }) => ({
      name: model.name,
      engine: model.engine,
      kind: model.kind,
      size_bytes: sizeBytes,
      license: model.license,
      languages: model.languages,
      complete: problems.length === 0,
      missing_files: problems.map((problem) => problem.path),
    }));
}

function weakestCheck(checks: readonly (CatalogFile | CatalogModel['archive'])[]): Verification {
  if (checks.every((check) => check.sha256 !== null)) return 'sha256';
  return checks.every((check) => check.bytes !== null) ? 'size' : 'unverified';
}

/**
 * Moves a fully checked folder into place. The old install, if any, is renamed aside first and
 * restored if the move fails, so a model folder is never half-written.
 */
async function place(modelsDir: string, model: CatalogModel, ready: string): Promise<string> {
  const target = modelDir(modelsDir, model);
  const aside = join(modelsDir, `.${model.name}.old-${randomBytes(4).toString('hex')}`);
  const hadOld = await rename(target, aside).then(
    () => true,
    () => false,
  );
  try {
    await rename(ready, target);
  } catch (error) {
    if (hadOld) await rename(aside, target);
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
  return target;
}

/** A hidden working folder inside modelsDir, so the final rename never crosses file systems. */
async function withStaging<T>(modelsDir: string, model: CatalogModel, work: (stage: string) => Promise<T>): Promise<T> {
  await mkdir(modelsDir, { recursive: true });
  const stage = await mkdtemp(join(modelsDir, `.${model.name}.staging-`));
  try {
    return await work(stage);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

function incomplete(model: CatalogModel, source: string, problems: FileProblem[], message: string): InstallResult {
  return { name: model.name, engine: model.engine, status: 'incomplete', source, missing_files: problems.map((problem) => problem.path), message };
}

/** Copies the catalog's files from `<from>/<sharedPath>/` when all of them are there and check out. */
async function installFromFolder(modelsDir: string, model: CatalogModel, from: string): Promise<InstallResult> {
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
    for (const file of model.files) {
      await mkdir(dirname(join(ready, file.path)), { recursive: true });
      await copyFile(join(source, file.path), join(ready, file.path));
    }
    const problems = await checkFiles(ready, model.files, true);
    if (problems.length > 0) return incomplete(model, source, problems, `${model.name}: unusable in ${source}: ${describeProblems(problems)}`);
    const path = await place(modelsDir, model, ready);
    return { name: model.name, engine: model.engine, status: 'installed', path, source, verification: weakestCheck(model.files) };
  });
}

async function unpack(archive: string, stage: string, model: CatalogModel): Promise<string> {
  if (!model.archive.url.endsWith('.tar.bz2')) {
    // A bare file is the model's only file.
    const ready = join(stage, model.name);
    await mkdir(ready);
    await rename(archive, join(ready, model.files[0]!.path));
    return ready;
  }
  try {
    // --no-same-owner: as root, tar would otherwise keep the archive's uid/gid.
    await runChecked('tar', ['--no-same-owner', '-xjf', archive, '-C', stage]);
  } catch (error) {
    const hint = error instanceof ProgramError && /bzip2/.test(error.result.stderr) ? ' (install bzip2: apt-get install bzip2)' : '';
    throw new DownloadError(`Unpacking ${model.archive.url} failed: ${(error as Error).message}${hint}`);
  }
  return model.archive.rootDir ? join(stage, model.archive.rootDir) : stage;
}

/** Downloads the model's bare extra files into the unpacked folder. */
async function addExtras(modelsDir: string, model: CatalogModel, ready: string, options: InstallOptions): Promise<void> {
  for (const extra of model.extras ?? []) {
    const partial = join(modelsDir, `.${model.name}.${extra.path}.download`);
    const fetched = await download(extra.url, partial, {
      bytes: extra.bytes,
      sha256: extra.sha256,
      onProgress: options.onProgress,
      allowLoopbackHttp: testMode(),
    });
    if (extra.sha256 === null)
      options.onWarning?.(`${model.name}: the catalog pins no sha256 for ${extra.url}, so this download is unverified (its sha256 is ${fetched.sha256})`);
    await rename(partial, join(ready, extra.path));
  }
}

async function installByDownload(modelsDir: string, model: CatalogModel, options: InstallOptions): Promise<InstallResult> {
  const { archive } = model;
  await mkdir(modelsDir, { recursive: true });
  const partial = partialPath(modelsDir, model);
  const fetched = await download(archive.url, partial, {
    bytes: archive.bytes,
    sha256: archive.sha256,
    onProgress: options.onProgress,
    allowLoopbackHttp: testMode(),
  });
  if (archive.sha256 === null) {
    options.onWarning?.(`${model.name}: the catalog pins no sha256 for ${archive.url}, so this download is unverified (its sha256 is ${fetched.sha256})`);
  }
  try {
    return await withStaging(modelsDir, model, async (stage) => {
      const ready = await unpack(partial, stage, model);
      await addExtras(modelsDir, model, ready, options);
      const problems = await checkFiles(ready, model.files, true);
      if (problems.length > 0) throw new DownloadError(`${model.name}: ${archive.url} does not hold a usable model: ${describeProblems(problems)}`);
      const path = await place(modelsDir, model, ready);
      return {
        name: model.name,
        engine: model.engine,
        status: 'installed' as const,
        path,
        source: archive.url,
        verification: weakestCheck([archive, ...(model.extras ?? [])]),
      };
    });
  } finally {
    // The archive was complete (it passed the download checks), so there is nothing to resume.
    await rm(partial, { force: true });
  }
}

/** Installs one catalog model, replacing an existing install only once the new one checks out. */
export async function installModel(modelsDir: string, name: string, options: InstallOptions = {}): Promise<InstallResult> {
  const model = findModel(name);
  return options.from ? installFromFolder(modelsDir, model, options.from) : installByDownload(modelsDir, model, options);
}

/** Removes a model and any partial download of it; false when there was nothing to remove. */
export async function removeModel(modelsDir: string, name: string): Promise<boolean> {
  const model = findModel(name);
  const existed = (await stat(modelDir(modelsDir, model)).catch(() => undefined)) !== undefined;
  await rm(modelDir(modelsDir, model), { recursive: true, force: true });
  await rm(partialPath(modelsDir, model), { force: true });
  return existed;
}
