import { buildModel, DT, scalar } from './onnx-builder.js';

/**
 * A stand-in for sherpa-onnx's own Silero VAD export (the official `asr-models/silero_vad.onnx`):
 * inputs `x` f32[1,N], `h` and `c` f32[2,1,64]; outputs `prob`, `new_h`, `new_c`, the layout
 * sherpa recognises as "exported by k2-fsa". Its speech probability is the window's RMS × 20,
 * capped at 1, so a tone of amplitude 0.1 or more counts as speech and silence does not.
 */
export function k2fsaVadModel(): Buffer {
  const state = (name: string) => ({ name, type: DT.FLOAT, dims: [2, 1, 64] });
  return buildModel({
    inputs: [{ name: 'x', type: DT.FLOAT, dims: [1, 'N'] }, state('h'), state('c')],
    outputs: [{ name: 'prob', type: DT.FLOAT, dims: [1, 1] }, state('new_h'), state('new_c')],
    initializers: [scalar('gain', DT.FLOAT, 20), scalar('one', DT.FLOAT, 1)],
    nodes: [
      { op: 'Mul', inputs: ['x', 'x'], outputs: ['squares'] },
      { op: 'ReduceMean', inputs: ['squares'], outputs: ['mean'], attrs: { axes: [1], keepdims: 1 } },
      { op: 'Sqrt', inputs: ['mean'], outputs: ['rms'] },
      { op: 'Mul', inputs: ['rms', 'gain'], outputs: ['scaled'] },
      { op: 'Min', inputs: ['scaled', 'one'], outputs: ['prob'] },
      { op: 'Identity', inputs: ['h'], outputs: ['new_h'] },
      { op: 'Identity', inputs: ['c'], outputs: ['new_c'] },
    ],
    metadata: {},
  });
}
