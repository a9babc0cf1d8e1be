// The neural models for `npm run setup`: runs `timbre models install --defaults` (npm dependencies
// are installed by then) and turns its JSON report into summary lines. Models come from the folder
// in TIMBRE_MODELS_FROM when set (CI: ../shared/models), otherwise they are downloaded.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TIMBRE = fileURLToPath(new URL('../../bin/timbre.mjs', import.meta.url));

function outcomeLine(outcome) {
  switch (outcome.status) {
    case 'installed':
      return `  ✓ ${outcome.name} (${outcome.engine}): installed${outcome.verification === 'unverified' ? ', unverified (the catalog pins no sha256 for it)' : ''}`;
    case 'incomplete':
      return `  ! ${outcome.name} (${outcome.engine}): ${outcome.message.replace(`${outcome.name}: `, '')}`;
    default:
      return `  ✗ ${outcome.name} (${outcome.engine}): not installed: ${outcome.message}`;
  }
}

/** An engine works when at least one of its models is installed. */
function engineLines(results) {
  const engines = [...new Set(results.map((outcome) => outcome.engine))];
  const working = engines.filter((engine) => results.some((outcome) => outcome.engine === engine && outcome.status === 'installed'));
  const idle = engines.filter((engine) => !working.includes(engine));
  const lines = [`${working.length > 0 ? '✓' : '!'} Neural engines that work: ${working.join(', ') || 'none'}`];
  if (idle.length > 0) lines.push(`! Neural engines without a complete model: ${idle.join(', ')}`);
  return lines;
}

/** Returns { ok, lines } for the set-up summary; ok is false only when something failed outright. */
export function installModels(env = process.env) {
  const from = env.TIMBRE_MODELS_FROM || undefined;
  const args = ['models', 'install', '--defaults', '--json', ...(from ? ['--from', from] : [])];
  process.stdout.write(`$ timbre ${args.join(' ')}\n`);
  // stderr (progress bars, warnings) goes straight to the terminal; stdout is the JSON report.
  const result = spawnSync(process.execPath, [TIMBRE, ...args], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', env });
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { ok: false, lines: [`✗ Models not installed: timbre models install exited with ${result.status ?? result.signal}`] };
  }
  const source = from ? `copied from ${from}` : 'downloaded';
  const lines = [`Models ${source} into ${report.models_dir}:`, ...report.results.map(outcomeLine), ...engineLines(report.results)];
  if (!from && result.status !== 0) lines.push('! Without internet access, set TIMBRE_MODELS_FROM to a folder laid out like ../shared/models');
  return { ok: result.status === 0, lines };
}
