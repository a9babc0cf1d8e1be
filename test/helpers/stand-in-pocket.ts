import { buildModel, DT, scalar } from './onnx-builder.js';

/**
 * Pocket TTS stand-in: the five graphs sherpa's Pocket implementation runs (bound by position, no
 * metadata). The encoder turns the reference audio into its RMS, lm_main carries it as the
 * conditioning, the flow converges to it and the decoder emits rms·sin(220 Hz): so the output's
 * peak equals the reference audio's RMS. About 2·(tokens+1)+2 frames of 1920 samples are produced.
 */

const ints = (name: string, data: number[]) => ({ name, type: DT.INT64, dims: [data.length], data });

const textConditioner = () =>
  buildModel({
    inputs: [{ name: 'token_ids', type: DT.INT64, dims: [1, 'N'] }],
    outputs: [{ name: 'text_emb', type: DT.FLOAT, dims: [1, 'N', 1024] }],
    initializers: [ints('axis2', [2]), { name: 'zeros', type: DT.FLOAT, dims: [1024], data: new Array<number>(1024).fill(0) }],
    nodes: [
      { op: 'Cast', inputs: ['token_ids'], outputs: ['ids'], attrs: { to: DT.FLOAT } },
      { op: 'Unsqueeze', inputs: ['ids', 'axis2'], outputs: ['ids3'] },
      { op: 'Mul', inputs: ['ids3', 'zeros'], outputs: ['text_emb'] },
    ],
  });

const encoder = () =>
  buildModel({
    inputs: [{ name: 'audio', type: DT.FLOAT, dims: [1, 1, 'S'] }],
    outputs: [{ name: 'voice_emb', type: DT.FLOAT, dims: [1, 1, 1024] }],
    initializers: [{ name: 'w', type: DT.FLOAT, dims: [1024], data: new Array<number>(1024).fill(1 / 1024) }],
    nodes: [
      { op: 'Mul', inputs: ['audio', 'audio'], outputs: ['sq'] },
      { op: 'ReduceMean', inputs: ['sq'], outputs: ['ms'], attrs: { axes: [2], keepdims: 1 } },
      { op: 'Sqrt', inputs: ['ms'], outputs: ['rms'] },
      { op: 'Mul', inputs: ['rms', 'w'], outputs: ['voice_emb'] },
    ],
  });

// States: steps taken, embedding rows seen, accumulated embedding sum. EOS once steps > 2·rows.
const lmMain = () =>
  buildModel({
    inputs: [
      { name: 'seq', type: DT.FLOAT, dims: [1, 's', 32] },
      { name: 'emb', type: DT.FLOAT, dims: [1, 'E', 1024] },
      { name: 'st_steps', type: DT.FLOAT, dims: [1] },
      { name: 'st_len', type: DT.FLOAT, dims: [1] },
      { name: 'st_voice', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [
      { name: 'conditioning', type: DT.FLOAT, dims: [1, 32] },
      { name: 'eos_logit', type: DT.FLOAT, dims: [1, 1] },
      { name: 'out_steps', type: DT.FLOAT, dims: [1] },
      { name: 'out_len', type: DT.FLOAT, dims: [1] },
      { name: 'out_voice', type: DT.FLOAT, dims: [1] },
    ],
    initializers: [scalar('i1', DT.INT64, 1), scalar('two', DT.FLOAT, 2), scalar('ten', DT.FLOAT, 10), ints('shape11', [1, 1]), ints('shape132', [1, 32])],
    nodes: [
      { op: 'Shape', inputs: ['seq'], outputs: ['seq_shape'] },
      { op: 'Gather', inputs: ['seq_shape', 'i1'], outputs: ['s_i'], attrs: { axis: 0 } },
      { op: 'Cast', inputs: ['s_i'], outputs: ['s_f'], attrs: { to: DT.FLOAT } },
      { op: 'Shape', inputs: ['emb'], outputs: ['emb_shape'] },
      { op: 'Gather', inputs: ['emb_shape', 'i1'], outputs: ['e_i'], attrs: { axis: 0 } },
      { op: 'Cast', inputs: ['e_i'], outputs: ['e_f'], attrs: { to: DT.FLOAT } },
      { op: 'Add', inputs: ['st_steps', 's_f'], outputs: ['out_steps'] },
      { op: 'Add', inputs: ['st_len', 'e_f'], outputs: ['out_len'] },
      { op: 'ReduceSum', inputs: ['emb'], outputs: ['emb_sum'], attrs: { keepdims: 0 } },
      { op: 'Add', inputs: ['st_voice', 'emb_sum'], outputs: ['out_voice'] },
      { op: 'Mul', inputs: ['out_len', 'two'], outputs: ['len2'] },
      { op: 'Sub', inputs: ['out_steps', 'len2'], outputs: ['d'] },
      { op: 'Mul', inputs: ['d', 'ten'], outputs: ['d10'] },
      { op: 'Reshape', inputs: ['d10', 'shape11'], outputs: ['eos_logit'] },
      { op: 'Expand', inputs: ['out_voice', 'shape132'], outputs: ['conditioning'] },
    ],
  });

const lmFlow = () =>
  buildModel({
    inputs: [
      { name: 'c', type: DT.FLOAT, dims: [1, 32] },
      { name: 's', type: DT.FLOAT, dims: [1, 1] },
      { name: 't', type: DT.FLOAT, dims: [1, 1] },
      { name: 'x', type: DT.FLOAT, dims: [1, 32] },
    ],
    outputs: [{ name: 'v', type: DT.FLOAT, dims: [1, 32] }],
    nodes: [
      { op: 'Sub', inputs: ['c', 'x'], outputs: ['cx'] },
      { op: 'Sub', inputs: ['t', 's'], outputs: ['dt'] },
      { op: 'Div', inputs: ['cx', 'dt'], outputs: ['v'] },
    ],
  });

const decoder = () =>
  buildModel({
    inputs: [
      { name: 'latent', type: DT.FLOAT, dims: [1, 'F', 32] },
      { name: 'st', type: DT.FLOAT, dims: [1] },
    ],
    outputs: [
      { name: 'audio', type: DT.FLOAT, dims: [1, 1, 'T'] },
      { name: 'out_st', type: DT.FLOAT, dims: [1] },
    ],
    initializers: [
      scalar('i1', DT.INT64, 1),
      scalar('spf', DT.INT64, 1920),
      scalar('spf_f', DT.FLOAT, 1920),
      scalar('zero', DT.INT64, 0),
      scalar('one', DT.INT64, 1),
      scalar('omega', DT.FLOAT, (2 * Math.PI * 220) / 24000),
      ints('flat', [1, 1, -1]),
    ],
    nodes: [
      { op: 'Shape', inputs: ['latent'], outputs: ['ls'] },
      { op: 'Gather', inputs: ['ls', 'i1'], outputs: ['F'], attrs: { axis: 0 } },
      { op: 'Mul', inputs: ['F', 'spf'], outputs: ['n'] },
      { op: 'Range', inputs: ['zero', 'n', 'one'], outputs: ['r'] },
      { op: 'Cast', inputs: ['r'], outputs: ['rf'], attrs: { to: DT.FLOAT } },
      { op: 'Mul', inputs: ['st', 'spf_f'], outputs: ['off'] },
      { op: 'Add', inputs: ['rf', 'off'], outputs: ['tt'] },
      { op: 'Mul', inputs: ['tt', 'omega'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['sine'] },
      { op: 'ReduceMean', inputs: ['latent'], outputs: ['amp'], attrs: { keepdims: 0 } },
      { op: 'Mul', inputs: ['sine', 'amp'], outputs: ['a1'] },
      { op: 'Reshape', inputs: ['a1', 'flat'], outputs: ['audio'] },
      { op: 'Cast', inputs: ['F'], outputs: ['Ff'], attrs: { to: DT.FLOAT } },
      { op: 'Add', inputs: ['st', 'Ff'], outputs: ['out_st'] },
    ],
  });

/** The five ONNX files under the names of the official int8 archive. */
export function pocketGraphs(): Record<string, Buffer> {
  return {
    'lm_flow.int8.onnx': lmFlow(),
    'lm_main.int8.onnx': lmMain(),
    'encoder.onnx': encoder(),
    'decoder.int8.onnx': decoder(),
    'text_conditioner.onnx': textConditioner(),
  };
}
