import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { catalog, findModel, spokenLanguages, type CatalogModel } from './catalog.js';
import { checkFiles, directorySize, type FileProblem } from './files.js';

export type ModelState = 'installed' | 'incomplete' | 'not installed';

export interface ModelStatus {
  model: CatalogModel;
  state: ModelState;
  sizeBytes: number;
  problems: FileProblem[];
  /** What the installed files can speak or hear: the catalog's languages whose extra files are present. */
  languages: string[];
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

/** Model names reach the file system only through here, and only as catalog names. */
function modelDir(modelsDir: string, model: CatalogModel): string {
  return join(modelsDir, model.name);
}

/** Where an interrupted download waits to be resumed: hidden, so it never looks like a model. */
export function partialPath(modelsDir: string, model: CatalogModel): string {
  return join(modelsDir, `.${model.name}.download`);
}

/** The catalog languages whose extra files are in `dir`. */
export function languagesIn(model: CatalogModel, dir: string): string[] {
  return spokenLanguages(model, (path) => existsSync(join(dir, path)));
}

export async function modelStatus(modelsDir: string, model: CatalogModel): Promise<ModelStatus> {
  const dir = modelDir(modelsDir, model);
  if (!(await stat(dir).catch(() => undefined))?.isDirectory())
    return { model, state: 'not installed', sizeBytes: 0, problems: [], languages: model.languages };
  const problems = await checkFiles(dir, model.files, false);
  const state = problems.length > 0 ? 'incomplete' : 'installed';
  return { model, state, sizeBytes: await directorySize(dir), problems, languages: languagesIn(model, dir) };
}

export async function listModels(modelsDir: string): Promise<ModelStatus[]> {
  return Promise.all(catalog().map((model) => modelStatus(modelsDir, model)));
}

export async function installedModels(modelsDir: string): Promise<InstalledModel[]> {
  const statuses = await listModels(modelsDir);
  return statuses
    .filter((status) => status.state !== 'not installed')
    .map(({ model, sizeBytes, problems, languages }) => ({
      name: model.name,
      engine: model.engine,
      kind: model.kind,
      size_bytes: sizeBytes,
      license: model.license,
      languages,
      complete: problems.length === 0,
      missing_files: problems.map((problem) => problem.path),
    }));
}

/**
 * Moves a fully checked folder into place. The old install, if any, is renamed aside first and
 * restored if the move fails, so a model folder is never half-written.
 */
export async function place(modelsDir: string, model: CatalogModel, ready: string): Promise<string> {
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
export async function withStaging<T>(modelsDir: string, model: CatalogModel, work: (stage: string) => Promise<T>): Promise<T> {
  await mkdir(modelsDir, { recursive: true });
  const stage = await mkdtemp(join(modelsDir, `.${model.name}.staging-`));
  try {
    return await work(stage);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Removes a model and any partial download of it; false when there was nothing to remove. */
export async function removeModel(modelsDir: string, name: string): Promise<boolean> {
  const model = findModel(name);
  const existed = (await stat(modelDir(modelsDir, model)).catch(() => undefined)) !== undefined;
  await rm(modelDir(modelsDir, model), { recursive: true, force: true });
  await rm(partialPath(modelsDir, model), { force: true });
  return existed;
}
