// sherpa-onnx-node ships no type declarations; its shape is described in sherpa-types.ts.
declare module 'sherpa-onnx-node' {
  import type { SherpaModule } from './sherpa-types.js';
  const sherpa: SherpaModule;
  export default sherpa;
}
