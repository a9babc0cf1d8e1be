import { open, type FileHandle } from 'node:fs/promises';

/**
 * A read-only walk over an ONNX ModelProto on disk that never loads the weights: length-delimited
 * fields are skipped by offset, so a 300 MB model costs a few hundred small reads. It reads what
 * validation needs (metadata_props, graph inputs and outputs) and checks that the protobuf framing
 * of the model and its graph is sound, which rejects random bytes and truncated files before they
 * reach onnxruntime (whose sync loader aborts the process on them).
 *
 * Field numbers from onnx/onnx.proto: ModelProto ir_version=1, graph=7, opset_import=8,
 * metadata_props=14; GraphProto input=11, output=12; StringStringEntryProto key=1, value=2;
 * ValueInfoProto name=1, type=2; TypeProto tensor_type=1; Tensor elem_type=1, shape=2;
 * TensorShapeProto dim=1; Dimension dim_value=1, dim_param=2.
 */

export class ProtoError extends Error {}

export interface TensorInfo {
  name: string;
  /** onnx TensorProto.DataType: 1 float, 6 int32, 7 int64, 11 double. */
  elemType: number;
  /** Numbers for fixed dimensions, names for symbolic ones. */
  dims: (number | string)[];
}

export interface OnnxInfo {
  metadata: Record<string, string>;
  inputs: TensorInfo[];
  outputs: TensorInfo[];
}

interface Field {
  number: number;
  wire: number;
  /** Varint value for wire type 0. */
  value: bigint;
  /** Payload range for wire type 2. */
  start: number;
  end: number;
}

const WINDOW = 64 * 1024;

/** Reads a file through one cached window, for sequential small reads with long skips. */
class FileWindow {
  private base = 0;
  private data = Buffer.alloc(0);
  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  async bytes(offset: number, length: number): Promise<Buffer> {
    if (offset < this.base || offset + length > this.base + this.data.length) {
      const want = Math.min(Math.max(length, WINDOW), this.size - offset);
      const buffer = Buffer.alloc(Math.max(want, 0));
      const { bytesRead } = await this.file.read(buffer, 0, buffer.length, offset);
      this.base = offset;
      this.data = buffer.subarray(0, bytesRead);
    }
    if (offset + length > this.base + this.data.length) throw new ProtoError('unexpected end of file');
    return this.data.subarray(offset - this.base, offset - this.base + length);
  }
}

/** Decodes a varint at `offset`; returns its value and the offset after it. */
async function varint(reader: FileWindow, offset: number, end: number): Promise<[bigint, number]> {
  const chunk = await reader.bytes(offset, Math.min(10, end - offset));
  let value = 0n;
  for (let i = 0; i < chunk.length; i++) {
    const byte = chunk[i] as number;
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new ProtoError('malformed varint');
}

/** Iterates the fields of a message occupying [start, end), checking the framing of each. */
async function* fields(reader: FileWindow, start: number, end: number): AsyncGenerator<Field> {
  let offset = start;
  while (offset < end) {
    const [tag, afterTag] = await varint(reader, offset, end);
    const number = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (number === 0) throw new ProtoError('field number 0');
    let value = 0n;
    let payload = afterTag;
    if (wire === 0) [value, offset] = await varint(reader, afterTag, end);
    else if (wire === 1) offset = afterTag + 8;
    else if (wire === 5) offset = afterTag + 4;
    else if (wire === 2) {
      const [length, afterLength] = await varint(reader, afterTag, end);
      payload = afterLength;
      offset = afterLength + Number(length);
    } else throw new ProtoError(`unsupported wire type ${wire}`);
    if (offset > end) throw new ProtoError('field runs past the end of its message');
    yield { number, wire, value, start: payload, end: offset };
  }
}

async function text(reader: FileWindow, field: Field): Promise<string> {
  return (await reader.bytes(field.start, field.end - field.start)).toString('utf8');
}

async function metadataEntry(reader: FileWindow, entry: Field): Promise<[string, string]> {
  let key = '';
  let value = '';
  for await (const field of fields(reader, entry.start, entry.end)) {
    if (field.number === 1 && field.wire === 2) key = await text(reader, field);
    if (field.number === 2 && field.wire === 2) value = await text(reader, field);
  }
  return [key, value];
}

/** Finds the first length-delimited sub-message `number` inside `parent`. */
async function child(reader: FileWindow, parent: Field, number: number): Promise<Field | undefined> {
  for await (const field of fields(reader, parent.start, parent.end)) if (field.number === number && field.wire === 2) return field;
  return undefined;
}

async function valueInfo(reader: FileWindow, info: Field): Promise<TensorInfo> {
  const tensor: TensorInfo = { name: '', elemType: 0, dims: [] };
  for await (const field of fields(reader, info.start, info.end)) {
    if (field.number === 1 && field.wire === 2) tensor.name = await text(reader, field);
    if (field.number !== 2 || field.wire !== 2) continue;
    const tensorType = await child(reader, field, 1);
    if (!tensorType) continue;
    for await (const part of fields(reader, tensorType.start, tensorType.end)) {
      if (part.number === 1 && part.wire === 0) tensor.elemType = Number(part.value);
      if (part.number === 2 && part.wire === 2) tensor.dims = await shape(reader, part);
    }
  }
  return tensor;
}

async function shape(reader: FileWindow, shapeField: Field): Promise<(number | string)[]> {
  const dims: (number | string)[] = [];
  for await (const dim of fields(reader, shapeField.start, shapeField.end)) {
    if (dim.number !== 1 || dim.wire !== 2) continue;
    let value: number | string = '?';
    for await (const part of fields(reader, dim.start, dim.end)) {
      if (part.number === 1 && part.wire === 0) value = Number(BigInt.asIntN(64, part.value));
      if (part.number === 2 && part.wire === 2) value = await text(reader, part);
    }
    dims.push(value);
  }
  return dims;
}

async function graphIo(reader: FileWindow, graph: Field): Promise<Pick<OnnxInfo, 'inputs' | 'outputs'>> {
  const inputs: TensorInfo[] = [];
  const outputs: TensorInfo[] = [];
  for await (const field of fields(reader, graph.start, graph.end)) {
    if (field.number === 11 && field.wire === 2) inputs.push(await valueInfo(reader, field));
    if (field.number === 12 && field.wire === 2) outputs.push(await valueInfo(reader, field));
  }
  return { inputs, outputs };
}

/** Reads metadata and graph I/O of an ONNX file; throws ProtoError when it is not a sound ModelProto. */
export async function readOnnxInfo(path: string): Promise<OnnxInfo> {
  const file = await open(path, 'r');
  try {
    const reader = new FileWindow(file, (await file.stat()).size);
    const metadata: Record<string, string> = {};
    let graph: Field | undefined;
    let hasIrVersion = false;
    let hasOpset = false;
    for await (const field of fields(reader, 0, reader.size)) {
      if (field.number === 1 && field.wire === 0) hasIrVersion = true;
      if (field.number === 7 && field.wire === 2) graph = field;
      if (field.number === 8 && field.wire === 2) hasOpset = true;
      if (field.number === 14 && field.wire === 2) {
        const [key, value] = await metadataEntry(reader, field);
        metadata[key] = value;
      }
    }
    if (!hasIrVersion || !graph || !hasOpset) throw new ProtoError('not an ONNX model (no ir_version, graph or opset_import)');
    const io = await graphIo(reader, graph);
    if (io.inputs.length === 0 || io.outputs.length === 0) throw new ProtoError('the graph declares no inputs or outputs');
    return { metadata, ...io };
  } finally {
    await file.close();
  }
}
