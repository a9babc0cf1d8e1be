import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The full path of a program on PATH, or undefined when it is not installed. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
