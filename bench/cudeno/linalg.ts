/**
 * The matrix products of the GPU benchmark (bench/README.md lists them): square products in float32
 * and bfloat16 beside CuPy and PyTorch; the batched and transposed-operand products of issue 19 on
 * CUDA beside `torch.bmm` and `torch.matmul(a.t(), b)`, and the same work on OpenCL (no target).
 * Called by suite.ts, whose timing helpers it is given; every batched or transposed result is checked
 * against a float64 product before it is timed.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/** What suite.ts lends: its record printer, its event timer and batch sizing, its settle time. */
export interface Timing {
  emit(record: BenchRecord): void;
  eventTimes(repeats: number, fn: () => void, batch?: number, host?: number[], settleMs?: number): number[];
  batchFor(fn: () => void): number;
  settleMs: number;
}

const BATCH = 256, SMALL_BATCH = 16, SIDE = 512, LARGE = 8192, OPENCL_LARGE = 4096;

/** The dtypes of the square and batched products, and their names in figures. */
type Float = "float32" | "bfloat16" | "float16";
const NAMES: Record<Float, string> = { float32: "f32", bfloat16: "bf16", float16: "f16" };
/** The square products' sides: the small ones a training step is made of, then the large ones. */
const SQUARE = [256, 512, 1024, 2048, 4096, 8192];

/** ‖c − ref‖ / ‖ref‖ with ref the float64 product of the same operands. */
function relativeError(c: ga.GPUArray, a: ga.GPUArray, b: ga.GPUArray): number {
  using a64 = a.astype("float64"), b64 = b.astype("float64"), c64 = c.astype("float64");
  using ref = ga.matmul(a64, b64);
  using diff = c64.sub(ref);
  return Math.sqrt(ga.vdot(diff, diff) / ga.vdot(ref, ref));
}

/** float32 without TF32 lands far under 5e-5 at these sizes; bfloat16 and float16 operands under 1e-2. */
function checked(c: ga.GPUArray, a: ga.GPUArray, b: ga.GPUArray, figure: string): number {
  const err = relativeError(c, a, b);
  const limit = c.dtype === "float32" ? 5e-5 : 1e-2;
  if (!(err < limit)) throw new Error(`${figure}: relative error ${err.toExponential(2)}, above ${limit}`);
  return err;
}

function operands(shape: number[], dtype: Float): [ga.GPUArray, ga.GPUArray] {
  const make = (seed: number) => {
    const x = ga.random.normal(shape, { seed });
    if (dtype === "float32") return x;
    using _ = x;
    return x.astype(dtype);
  };
  return [make(11), make(12)];
}

/**
 * `matmul.{f32,bf16,f16}.{256,512,1024,2048,4096,8192}`: square products in TFLOP/s, after `settleMs`
 * of untimed products; for 1024 also `matmul.{f32,bf16,f16}.1024.host`, the host's time to queue one
 * product.
 */
export function squareFigures(t: Timing): void {
  ga.useBackend("cuda");
  for (const dtype of ["float32", "bfloat16", "float16"] as const) {
    for (const size of SQUARE) {
      const a32 = ga.random.normal([size, size], { seed: 3 }),
        b32 = ga.random.normal([size, size], { seed: 4 });
      const a = dtype === "float32" ? a32 : a32.astype(dtype),
        b = dtype === "float32" ? b32 : b32.astype(dtype);
      const c = ga.empty([size, size], dtype);
      const product = () => ga.matmul(a, b, { out: c });
      const host: number[] = [];
      const ms = t.eventTimes(10, product, t.batchFor(product), host, t.settleMs);
      const flops = 2 * size ** 3;
      const figure = `matmul.${NAMES[dtype]}.${size}`;
      t.emit({
        impl: "cudeno",
        figure,
        unit: "TFLOP/s",
        better: "higher",
        samples: ms.map((m) => flops / (m / 1000) / 1e12),
      });
      if (size === 1024) {
        t.emit({
          impl: "cudeno",
          figure: `${figure}.host`,
          unit: "us",
          better: "lower",
          samples: host,
          note: "host time to queue one product; above the GPU's time per product, the host is the limit",
        });
      }
      for (const x of new Set([a32, b32, a, b, c])) x.free();
    }
  }
}

/**
 * `matmul.bmm.{f32,bf16}.256x512` and `matmul.bmm.{f32,bf16,f16}.16x512`: 256 (16) products of
 * 512×512 matrices, `[256, 512, 512] @ [256, 512, 512]` (one strided-batch `cublasLtMatmul`);
 * `matmul.{f32,bf16}.8192.t`: `matmul(a.T, b)` at 8192, the transposed operand read in place as
 * `CUBLAS_OP_T`. TFLOP/s, as the other matmul figures.
 */
export function cudaFigures(t: Timing): void {
  ga.useBackend("cuda");
  for (const dtype of ["float32", "bfloat16", "float16"] as const) {
    const name = NAMES[dtype];
    const cases = dtype === "float16" ? [] : [
      {
        figure: `matmul.bmm.${name}.${BATCH}x${SIDE}`,
        shape: [BATCH, SIDE, SIDE],
        flops: 2 * BATCH * SIDE ** 3,
      },
      { figure: `matmul.${name}.${LARGE}.t`, shape: [LARGE, LARGE], flops: 2 * LARGE ** 3 },
    ];
    cases.push({
      figure: `matmul.bmm.${name}.${SMALL_BATCH}x${SIDE}`,
      shape: [SMALL_BATCH, SIDE, SIDE],
      flops: 2 * SMALL_BATCH * SIDE ** 3,
    });
    for (const { figure, shape, flops } of cases) {
      const [a, b] = operands(shape, dtype);
      using _a = a, _b = b;
      using left = figure.endsWith(".t") ? a.T : a;
      using c = ga.empty(shape, dtype);
      const product = () => ga.matmul(left, b, { out: c });
      product();
      const err = checked(c, left, b, figure);
      const ms = t.eventTimes(10, product, t.batchFor(product), undefined, t.settleMs);
      t.emit({
        impl: "cudeno",
        figure,
        unit: "TFLOP/s",
        better: "higher",
        samples: ms.map((m) => flops / (m / 1000) / 1e12),
        note: `${
          figure.endsWith(".t") ? "matmul(a.T, b, { out })" : "matmul(a, b, { out })"
        }; relative error ${err.toExponential(1)}`,
      });
    }
  }
}

/**
 * The same products on OpenCL (the H200's NVIDIA OpenCL): `opencl.matmul.bmm.f32.256x512`,
 * `opencl.matmul.f32.4096` and `opencl.matmul.f32.4096.t`, host-timed to the queue's end; reported,
 * with no target.
 */
export function openclFigures(t: Timing): void {
  ga.useBackend("opencl");
  const cases = [
    {
      figure: `opencl.matmul.bmm.f32.${BATCH}x${SIDE}`,
      shape: [BATCH, SIDE, SIDE],
      flops: 2 * BATCH * SIDE ** 3,
    },
    {
      figure: `opencl.matmul.f32.${OPENCL_LARGE}`,
      shape: [OPENCL_LARGE, OPENCL_LARGE],
      flops: 2 * OPENCL_LARGE ** 3,
    },
    {
      figure: `opencl.matmul.f32.${OPENCL_LARGE}.t`,
      shape: [OPENCL_LARGE, OPENCL_LARGE],
      flops: 2 * OPENCL_LARGE ** 3,
    },
  ];
  for (const { figure, shape, flops } of cases) {
    const [a, b] = operands(shape, "float32");
    using _a = a, _b = b;
    using left = figure.endsWith(".t") ? a.T : a;
    using c = ga.empty(shape, "float32");
    ga.matmul(left, b, { out: c });
    const err = checked(c, left, b, figure);
    const samples: number[] = [];
    for (let s = 0; s < 5; s++) {
      const started = performance.now();
      ga.matmul(left, b, { out: c });
      c.backend.synchronize();
      samples.push(flops / ((performance.now() - started) / 1000) / 1e12);
    }
    t.emit({
      impl: "cudeno",
      figure,
      unit: "TFLOP/s",
      better: "higher",
      samples,
      note: `on ${ga.backendDevice()}, the tiled kernel; relative error ${err.toExponential(1)}`,
    });
  }
}
