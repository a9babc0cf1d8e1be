// The set-up both `npm run setup` (a git checkout) and `timbre setup` (an installed package) run:
// the Debian packages, then, in a checkout only, the npm dependencies and the build (a package ships
// them built), then the default models. Plain Node with no dependencies: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { installDebianPackages } from './debian.mjs';
import { installModels } from './models.mjs';

function npm(args, done) {
  process.stdout.write(`$ npm ${args.join(' ')}\n`);
  const result = spawnSync('npm', args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed with ${result.status ?? result.signal}`);
  return done;
}

/** Runs every step, prints the summary and returns the exit code: 0 when the packages and models are in. */
export function runSetup({ checkout }) {
  const debian = installDebianPackages();
  const summary = [...debian.lines];
  let models = { ok: false };
  if (debian.ok) {
    if (checkout) {
      summary.push(npm(['ci', '--no-audit', '--no-fund'], '✓ npm dependencies installed (npm ci)'));
      summary.push(npm(['run', 'build'], '✓ Timbre compiled (dist) and Timbre Studio built (studio/dist)'));
    }
    // After npm ci, because the model installer is the timbre CLI itself.
    models = installModels();
    summary.push(...models.lines);
  } else {
    summary.push(`! ${checkout ? 'npm dependencies and models' : 'models'} not installed: install the Debian packages first`);
  }
  process.stdout.write(`\nTimbre set-up\n${summary.map((line) => `  ${line}`).join('\n')}\n`);
  if (debian.ok) process.stdout.write(`\nStart the service with: ${checkout ? 'npm start' : 'timbre serve'}\n`);
  return debian.ok && models.ok ? 0 : 1;
}
