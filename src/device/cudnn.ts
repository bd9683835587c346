/**
 * Convolutions on cuDNN: one handle per context, set to the current stream before each call; for each
 * convolution shape a plan (its tensor, filter and convolution descriptors and, found on first use by
 * cuDNN's heuristics, the algorithm of each direction and its workspace size), kept for the next call of
 * that shape as PyTorch keeps them. Workspaces come from the memory pool on the current stream and go
 * back to it after the call, in stream order.
 *
 * @module
 */

import type { CudaBackend } from "./cuda.ts";
import type { ConvDescription, Dnn, DnnOperand } from "./dnn.ts";
import type { Context, DeviceAllocation, Stream } from "../cuda/mod.ts";
import { refuseWhileCapturing } from "../cuda/capturing.ts";
import {
  CUDNN_CROSS_CORRELATION,
  CUDNN_DATA_BFLOAT16,
  CUDNN_DATA_DOUBLE,
  CUDNN_DATA_FLOAT,
  CUDNN_DATA_HALF,
  CUDNN_DEFAULT_MATH,
  CUDNN_FMA_MATH,
  CUDNN_TENSOR_NCHW,
  libcudnn,
  PERF_BYTES,
} from "../../ffi/cudnn.ts";
import { type DType, DTYPES } from "../kernel/dtype.ts";

/**
 * A cuDNN call failed.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import * as nn from "@cudeno/cudeno/nn";
 * try {
 *   nn.conv2d(ga.ones([1, 1, 4, 4]), ga.ones([1, 1, 3, 3]));
 * } catch (e) {
 *   if (e instanceof ga.CudnnError) console.error(e.code, e.call, e.message);
 * }
 * ```
 */
export class CudnnError extends Error {
  /** The `cudnnStatus_t` value. */
  readonly code: number;
  /** The cuDNN function that returned it, `cudnnConvolutionForward`. */
  readonly call: string;

  /** Builds the error from cuDNN's own name for `code`. */
  constructor(code: number, call: string) {
    const text = libcudnn.get().cudnnGetErrorString(code);
    super(
      `${call} failed: ${text === null ? `cudnnStatus_t ${code}` : Deno.UnsafePointerView.getCString(text)}`,
    );
    this.name = "CudnnError";
    this.code = code;
    this.call = call;
  }
}

function check(code: number, call: string): void {
  if (code !== 0) throw new CudnnError(code, call);
}

/** A context's handle and the stream it is set to. */
interface DnnHandle {
  readonly handle: Deno.PointerObject;
  readonly generation: number;
  stream?: Stream;
}

const handles = new WeakMap<Context, DnnHandle>();

/** The backend's context made current and its handle set to the current stream. */
function prepare(backend: CudaBackend, what: string): Deno.PointerObject {
  const stream = backend.streamFor(what);
  const context = backend.context;
  context.setCurrent();
  let known = handles.get(context);
  const lib = libcudnn.get();
  if (known === undefined || known.generation !== context.generation) {
    refuseWhileCapturing(
      "set cuDNN up for a first convolution",
      "run one convolution before the capture begins",
    );
    const out = new BigUint64Array(1);
    check(lib.cudnnCreate(out), "cudnnCreate");
    known = { handle: Deno.UnsafePointer.create(out[0]!)!, generation: context.generation };
    handles.set(context, known);
    check(lib.cudnnSetStream(known.handle, null), "cudnnSetStream");
  }
  if (known.stream !== stream) {
    check(lib.cudnnSetStream(known.handle, stream?.unsafeHandle ?? null), "cudnnSetStream");
    known.stream = stream;
  }
  return known.handle;
}

/** An algorithm and the workspace it needs. */
interface Choice {
  readonly algo: number;
  readonly bytes: number;
}

/** One convolution shape's descriptors and, once asked for, each direction's algorithm. */
interface Plan {
  readonly x: Deno.PointerObject;
  readonly w: Deno.PointerObject;
  readonly y: Deno.PointerObject;
  readonly conv: Deno.PointerObject;
  forward?: Choice;
  backwardData?: Choice;
  backwardFilter?: Choice;
}

/** Plans by shape; the oldest goes (its descriptors destroyed) past {@link MAX_PLANS}. */
const plans = new Map<string, Plan>();
const MAX_PLANS = 256;
/** The largest workspace an algorithm may ask for; the heuristics' next choice is taken past it. */
const MAX_WORKSPACE = 2 ** 30;

const DATA_TYPES: Partial<Record<DType, number>> = {
  float32: CUDNN_DATA_FLOAT,
  float64: CUDNN_DATA_DOUBLE,
  float16: CUDNN_DATA_HALF,
  bfloat16: CUDNN_DATA_BFLOAT16,
};

function created(
  create: (out: BigUint64Array) => number,
  call: string,
): Deno.PointerObject {
  const out = new BigUint64Array(1);
  check(create(out), call);
  return Deno.UnsafePointer.create(out[0]!)!;
}

function planFor(d: ConvDescription): Plan {
  const key = JSON.stringify(d);
  const known = plans.get(key);
  if (known !== undefined) return known;
  const lib = libcudnn.get(), type = DATA_TYPES[d.dtype]!;
  const x = created((o) => lib.cudnnCreateTensorDescriptor(o), "cudnnCreateTensorDescriptor");
  const y = created((o) => lib.cudnnCreateTensorDescriptor(o), "cudnnCreateTensorDescriptor");
  const w = created((o) => lib.cudnnCreateFilterDescriptor(o), "cudnnCreateFilterDescriptor");
  const conv = created((o) => lib.cudnnCreateConvolutionDescriptor(o), "cudnnCreateConvolutionDescriptor");
  const plan: Plan = { x, w, y, conv };
  try {
    check(lib.cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, type, ...d.x), "cudnnSetTensor4dDescriptor");
    check(lib.cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, type, ...d.y), "cudnnSetTensor4dDescriptor");
    check(lib.cudnnSetFilter4dDescriptor(w, type, CUDNN_TENSOR_NCHW, ...d.w), "cudnnSetFilter4dDescriptor");
    check(
      lib.cudnnSetConvolution2dDescriptor(
        conv,
        ...d.pad,
        ...d.stride,
        ...d.dilation,
        CUDNN_CROSS_CORRELATION,
        d.dtype === "float64" ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT,
      ),
      "cudnnSetConvolution2dDescriptor",
    );
    check(lib.cudnnSetConvolutionGroupCount(conv, d.groups), "cudnnSetConvolutionGroupCount");
    const math = d.dtype === "float32" && !d.tf32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH;
    check(lib.cudnnSetConvolutionMathType(conv, math), "cudnnSetConvolutionMathType");
  } catch (e) {
    destroy(plan);
    throw e;
  }
  if (plans.size >= MAX_PLANS) {
    const [oldest, old] = plans.entries().next().value!;
    plans.delete(oldest);
    destroy(old);
  }
  plans.set(key, plan);
  return plan;
}

/** Destroys a plan's descriptors; cleanup never throws. */
function destroy(plan: Plan): void {
  const lib = libcudnn.get();
  lib.cudnnDestroyTensorDescriptor(plan.x);
  lib.cudnnDestroyTensorDescriptor(plan.y);
  lib.cudnnDestroyFilterDescriptor(plan.w);
  lib.cudnnDestroyConvolutionDescriptor(plan.conv);
}

const perf = new Uint8Array(PERF_BYTES * 8), returned = new Int32Array(1), size = new BigUint64Array(1);

/**
 * The first algorithm of cuDNN's heuristics (`_v7`) that it says runs and that needs at most
 * {@link MAX_WORKSPACE}, with the workspace `workspace` reports for it.
 */
function choose(
  call: string,
  query: (count: number, returned: Int32Array, perf: Uint8Array) => number,
  workspace: (algo: number, size: BigUint64Array) => number,
  workspaceCall: string,
): Choice {
  check(query(perf.length / PERF_BYTES, returned, perf), call);
  const view = new DataView(perf.buffer);
  for (let i = 0; i < returned[0]!; i++) {
    const at = i * PERF_BYTES;
    const algo = view.getInt32(at, true), status = view.getInt32(at + 4, true);
    if (status !== 0) continue;
    check(workspace(algo, size), workspaceCall);
    if (size[0]! <= BigInt(MAX_WORKSPACE)) return { algo, bytes: Number(size[0]!) };
  }
  throw new CudnnError(9, /* CUDNN_STATUS_NOT_SUPPORTED */ `${call} (no algorithm runs this convolution)`);
}

const one32 = new Float32Array([1]), zero32 = new Float32Array([0]);
const one64 = new Float64Array([1]), zero64 = new Float64Array([0]);

const address = (o: DnnOperand, dtype: DType): bigint =>
  (o.buffer as DeviceAllocation).ptr + BigInt(o.offset * DTYPES[dtype].size);

/** Runs `run` with a workspace of `bytes` from the pool on the current stream, given back after. */
function withWorkspace(
  backend: CudaBackend,
  bytes: number,
  run: (work: bigint) => number,
  call: string,
): void {
  const work = bytes === 0 ? undefined : backend.alloc(bytes) as DeviceAllocation;
  try {
    check(run(work?.ptr ?? 0n), call);
  } finally {
    work?.free();
  }
}

/** Each direction of a convolution: the operands' descriptors in the order its calls take them, and those calls. */
const DIRECTIONS = {
  forward: {
    what: "run a convolution",
    order: ["x", "w", "y"],
    query: "cudnnGetConvolutionForwardAlgorithm_v7",
    size: "cudnnGetConvolutionForwardWorkspaceSize",
    run: "cudnnConvolutionForward",
  },
  backwardData: {
    what: "run a convolution's input gradient",
    order: ["w", "y", "x"],
    query: "cudnnGetConvolutionBackwardDataAlgorithm_v7",
    size: "cudnnGetConvolutionBackwardDataWorkspaceSize",
    run: "cudnnConvolutionBackwardData",
  },
  backwardFilter: {
    what: "run a convolution's weight gradient",
    order: ["x", "y", "w"],
    query: "cudnnGetConvolutionBackwardFilterAlgorithm_v7",
    size: "cudnnGetConvolutionBackwardFilterWorkspaceSize",
    run: "cudnnConvolutionBackwardFilter",
  },
} as const;

/**
 * `out = first ⊛ second` in `direction` (forward: `y` of `x` and `w`; backward data: `dx` of `w` and `dy`;
 * backward filter: `dw` of `x` and `dy`), with the algorithm chosen for the shape on first use.
 */
function convolve(
  backend: CudaBackend,
  direction: keyof typeof DIRECTIONS,
  d: ConvDescription,
  first: DnnOperand,
  second: DnnOperand,
  out: DnnOperand,
): void {
  const spec = DIRECTIONS[direction];
  const handle = prepare(backend, spec.what);
  const lib = libcudnn.get(), plan = planFor(d);
  const [a, b, c] = spec.order.map((k) => plan[k]) as [
    Deno.PointerObject,
    Deno.PointerObject,
    Deno.PointerObject,
  ];
  const choice = plan[direction] ??= choose(
    spec.query,
    (n, r, p) => lib[spec.query](handle, a, b, plan.conv, c, n, r, p),
    (algo, s) => lib[spec.size](handle, a, b, plan.conv, c, algo, s),
    spec.size,
  );
  const [one, zero] = d.dtype === "float64" ? [one64, zero64] : [one32, zero32];
  withWorkspace(backend, choice.bytes, (work) =>
    lib[spec.run](
      handle,
      one,
      a,
      address(first, d.dtype),
      b,
      address(second, d.dtype),
      plan.conv,
      choice.algo,
      work,
      BigInt(choice.bytes),
      zero,
      c,
      address(out, d.dtype),
    ), spec.run);
}

/**
 * cuDNN as the CUDA backend's {@link Dnn}, or undefined where cuDNN does not load (`nn.cudnn.problem()`
 * then says why, with every path tried).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.zeros(1).backend.dnn?.name); // "cuDNN 9.14.0" on CUDA with cuDNN
 * ```
 */
export function cudnnOf(backend: CudaBackend): Dnn | undefined {
  if (!libcudnn.available()) return undefined;
  const v = Number(libcudnn.get().cudnnGetVersion());
  return {
    name: `cuDNN ${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`,
    dtypes: ["float32", "float64", "float16", "bfloat16"],
    convForward: (d, x, w, y) => convolve(backend, "forward", d, x, w, y),
    convBackwardData: (d, w, dy, dx) => convolve(backend, "backwardData", d, w, dy, dx),
    convBackwardFilter: (d, x, dy, dw) => convolve(backend, "backwardFilter", d, x, dy, dw),
  };
}
