import type { SherpaModule } from './sherpa-types.js';
import { EngineError } from '../../errors.js';

let loading: Promise<SherpaModule> | undefined;

/**
 * Loads sherpa-onnx-node on first use, so that importing an engine module (for `probe()`) never
 * loads native code. The package is CommonJS: from ESM its exports arrive as the default import.
 */
export function loadSherpa(): Promise<SherpaModule> {
  loading ??= import('sherpa-onnx-node').then(
    (module: { default: SherpaModule }) => module.default,
    (error: unknown) => {
      loading = undefined;
      // The loader's own message names paths under node_modules; its error code says enough.
      const reason = error instanceof Error && 'code' in error ? String(error.code) : 'load_failed';
      throw new EngineError('engine_unavailable', 'sherpa-onnx-node could not be loaded; run `npm install`', { reason });
    },
  );
  return loading;
}
