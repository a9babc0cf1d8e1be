import { parseArgs } from 'node:util';
import { ConfigError, forgetSecrets, loadConfig, SETTINGS } from '../platform/config.js';
import { ApiError } from '../platform/errors.js';

const USAGE = `Usage: timbre <command> [options]

Commands:
  setup                          Install the Debian packages and the default models (what npm run setup does)
  serve                          Start the service (default port 8765 on 127.0.0.1)
  worker [--slots N]             Run engine calls for services that share TIMBRE_QUEUE_URL (Redis)
  studio [--no-open] [--json]    Print and open a one-time link that signs the browser in to Timbre Studio
  mcp                            An MCP server on stdio for AI agents, acting on the running service with TIMBRE_API_KEY
  keys create --name NAME [--scopes a,b] [--rate-limit scope=N ...] [--quota-mb N] [--json]
  keys list [--json]
  keys limits KEY_ID scope=N ...   Change a key's requests-per-minute limits
  keys revoke KEY_ID
  keys delete KEY_ID
  models list [--json]           Catalog models: installed, incomplete or not installed
  models install NAME... | --defaults [--from DIR] [--accept-changed] [--json]
                                 Download, verify, unpack and check that the engine loads it;
                                 --from DIR (or TIMBRE_MODELS_FROM) copies from a folder laid out
                                 like ../shared/models instead; --accept-changed installs files
                                 that differ from the catalog's pins (a re-published archive)
  models remove NAME...

Options (each also an environment variable):
${SETTINGS.map((setting) => `  --${setting.flag.padEnd(18)} ${setting.env.padEnd(24)} ${setting.description}`).join('\n')}
`;

const settingOptions = Object.fromEntries(SETTINGS.map((setting) => [setting.flag, { type: 'string' as const }]));

async function main(argv: string[]): Promise<number | undefined> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...settingOptions,
      name: { type: 'string' },
      scopes: { type: 'string' },
      'rate-limit': { type: 'string', multiple: true },
      'quota-mb': { type: 'string' },
      json: { type: 'boolean' },
      from: { type: 'string' },
      defaults: { type: 'boolean' },
      'accept-changed': { type: 'boolean' },
      'no-open': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  // The same steps as `npm run setup`, less npm ci and the build, which an installed package has done.
  if (command === 'setup') return (await import('../../scripts/setup/run.mjs')).runSetup({ checkout: false });
  const given = values as Record<string, unknown>;
  const flags = Object.fromEntries(SETTINGS.map((setting) => [setting.flag, given[setting.flag] as string | undefined]));
  const config = loadConfig(process.env, flags);
  forgetSecrets();
  // Each command's module is loaded only when it runs, so `timbre --help` loads none of them and `timbre keys` no server.
  switch (command) {
    case 'serve':
      return (await import('./serve.js')).serveCommand(config);
    case 'worker':
      return (await import('./worker.js')).workerCommand(config);
    case 'keys':
      return (await import('./keys.js')).keysCommand(config, rest, {
        name: values.name,
        scopes: values.scopes,
        rateLimits: values['rate-limit'] ?? [],
        quotaMb: values['quota-mb'],
        json: values.json ?? false,
      });
    case 'studio':
      return (await import('./studio.js')).studioCommand(config, { open: !(values['no-open'] ?? false), json: values.json ?? false });
    case 'mcp':
      return (await import('./mcp.js')).mcpCommand(config);
    case 'models':
      return (await import('./models.js')).modelsCommand(config, rest, {
        from: values.from,
        defaults: values.defaults ?? false,
        acceptChanged: values['accept-changed'] ?? false,
        json: values.json ?? false,
      });
    default:
      process.stderr.write(`Unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

/** Whether an error is one the user can act on from its message alone (no stack trace needed). */
async function isKnown(error: unknown): Promise<boolean> {
  if (error instanceof ApiError || error instanceof ConfigError) return true;
  if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) return true;
  // Loaded here, not up front: it brings in better-sqlite3, which `timbre --help` does without.
  const { isStorageFull } = await import('../platform/storage-full.js');
  return isStorageFull(error);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  async (error: unknown) => {
    const known = await isKnown(error);
    process.stderr.write(`timbre: ${known ? (error as Error).message : (error as Error).stack}\n`);
    process.exitCode = known ? 2 : 1;
  },
);
