import { spawn } from 'node:child_process';

export interface RunOptions {
  signal?: AbortSignal;
  /** Written to the program's stdin, then closed. */
  input?: string | Buffer;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ProgramError extends Error {
  constructor(
    readonly program: string,
    readonly result: RunResult,
  ) {
    super(`${program} failed (${result.signal ?? `exit ${result.code}`}): ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    this.name = 'ProgramError';
  }
}

/**
 * Runs a program with an argument list (never a shell), collecting its output. Aborting the
 * signal kills the program and rejects with the signal's reason.
 */
export function runProgram(program: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(program, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += String(chunk);
    });
    child.stdin.on('error', () => {
      // The program may exit before reading its input; its exit status tells what happened.
    });
    child.once('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, signal) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) return reject(options.signal.reason);
      resolve({ stdout: Buffer.concat(stdout), stderr, code, signal });
    });
    child.stdin.end(options.input);
  });
}

/** Like runProgram, but a non-zero exit is an error. */
export async function runChecked(program: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await runProgram(program, args, options);
  if (result.code !== 0) throw new ProgramError(program, result);
  return result;
}
