/**
 * A dependency-free ONNX (protobuf) writer for stand-in models in tests: enough of onnx.proto for
 * small graphs. Field numbers (onnx/onnx.proto, stable since IR v3):
 *   ModelProto: ir_version=1, producer_name=2, graph=7, opset_import=8, metadata_props=14
 *   OperatorSetIdProto: domain=1, version=2
 *   GraphProto: node=1, name=2, initializer=5, input=11, output=12
 *   NodeProto: input=1, output=2, name=3, op_type=4, attribute=5
 *   AttributeProto: name=1, f=2, i=3, s=4, floats=7, ints=8, type=20 (FLOAT=1, INT=2, STRING=3, FLOATS=6, INTS=7)
 *   TensorProto: dims=1, data_type=2, name=8, raw_data=9
 *   ValueInfoProto: name=1, type=2; TypeProto: tensor_type=1; Tensor: elem_type=1, shape=2
 *   TensorShapeProto: dim=1; Dimension: dim_value=1, dim_param=2; StringStringEntryProto: key=1, value=2
 */

export const DT = { FLOAT: 1, INT32: 6, INT64: 7, DOUBLE: 11 } as const;
type DataType = (typeof DT)[keyof typeof DT];

export interface ValueSpec {
  name: string;
  type: DataType;
  /** Numbers are fixed, strings symbolic. */
  dims: (number | string)[];
}

export interface TensorSpec {
  name: string;
  type: DataType;
  dims: number[];
  data: number[];
}

export type AttributeValue = number | string | number[];

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, AttributeValue>;
}

export interface ModelSpec {
  inputs: ValueSpec[];
  outputs: ValueSpec[];
  nodes: NodeSpec[];
  initializers?: TensorSpec[];
  metadata?: Record<string, string | number>;
  /** 17 keeps ReduceMean/ReduceSum `axes` an attribute (an input from 18 on). */
  opset?: number;
}

class Writer {
  private readonly parts: Buffer[] = [];

  varint(value: number | bigint): void {
    let rest = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest !== 0n) byte |= 0x80;
      out.push(byte);
    } while (rest !== 0n);
    this.parts.push(Buffer.from(out));
  }
  int(field: number, value: number): void {
    this.varint((field << 3) | 0);
    this.varint(value);
  }
  bytes(field: number, data: Buffer): void {
    this.varint((field << 3) | 2);
    this.varint(data.length);
    this.parts.push(data);
  }
  str(field: number, text: string): void {
    this.bytes(field, Buffer.from(text, 'utf8'));
  }
  float(field: number, value: number): void {
    const data = Buffer.alloc(4);
    data.writeFloatLE(value);
    this.varint((field << 3) | 5);
    this.parts.push(data);
  }
  msg(field: number, fill: (writer: Writer) => void): void {
    const inner = new Writer();
    fill(inner);
    this.bytes(field, inner.finish());
  }
  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function rawData(type: DataType, data: number[]): Buffer {
  if (type === DT.FLOAT) return Buffer.from(new Float32Array(data).buffer);
  if (type === DT.INT64) return Buffer.from(new BigInt64Array(data.map((value) => BigInt(value))).buffer);
  if (type === DT.INT32) return Buffer.from(new Int32Array(data).buffer);
  return Buffer.from(new Float64Array(data).buffer);
}

function valueInfo(graph: Writer, field: number, spec: ValueSpec): void {
  graph.msg(field, (info) => {
    info.str(1, spec.name);
    info.msg(2, (type) =>
      type.msg(1, (tensor) => {
        tensor.int(1, spec.type);
        tensor.msg(2, (shape) => {
          for (const dim of spec.dims) shape.msg(1, (d) => (typeof dim === 'string' ? d.str(2, dim) : d.int(1, dim)));
        });
      }),
    );
  });
}

function attribute(node: Writer, name: string, value: AttributeValue): void {
  node.msg(5, (attr) => {
    attr.str(1, name);
    if (typeof value === 'string') {
      attr.str(4, value);
      attr.int(20, 3);
    } else if (Array.isArray(value) && value.every(Number.isInteger)) {
      for (const item of value) attr.int(8, item);
      attr.int(20, 7);
    } else if (Array.isArray(value)) {
      for (const item of value) attr.float(7, item);
      attr.int(20, 6);
    } else if (Number.isInteger(value)) {
      attr.int(3, value);
      attr.int(20, 2);
    } else {
      attr.float(2, value);
      attr.int(20, 1);
    }
  });
}

/** Serializes a ModelProto. */
export function buildModel(spec: ModelSpec): Buffer {
  const model = new Writer();
  model.int(1, 8);
  model.str(2, 'timbre-stand-in');
  model.msg(7, (graph) => {
    spec.nodes.forEach((node, index) =>
      graph.msg(1, (writer) => {
        for (const input of node.inputs) writer.str(1, input);
        for (const output of node.outputs) writer.str(2, output);
        writer.str(3, `${node.op}_${index}`);
        writer.str(4, node.op);
        for (const [name, value] of Object.entries(node.attrs ?? {})) attribute(writer, name, value);
      }),
    );
    graph.str(2, 'stand_in');
    for (const tensor of spec.initializers ?? []) {
      graph.msg(5, (writer) => {
        for (const dim of tensor.dims) writer.int(1, dim);
        writer.int(2, tensor.type);
        writer.str(8, tensor.name);
        writer.bytes(9, rawData(tensor.type, tensor.data));
      });
    }
    for (const input of spec.inputs) valueInfo(graph, 11, input);
    for (const output of spec.outputs) valueInfo(graph, 12, output);
  });
  model.msg(8, (opset) => {
    opset.str(1, '');
    opset.int(2, spec.opset ?? 17);
  });
  for (const [key, value] of Object.entries(spec.metadata ?? {})) {
    model.msg(14, (entry) => {
      entry.str(1, key);
      entry.str(2, String(value));
    });
  }
  return model.finish();
}

/** A scalar initializer. */
export function scalar(name: string, type: DataType, value: number): TensorSpec {
  return { name, type, dims: [], data: [value] };
}
