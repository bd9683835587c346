/**
 * Matrix products as cuBLASLt runs them on CUDA (and the tiled kernel on OpenCL): odd sizes from 1 to
 * 300, transposed and offset views, batches (broadcast ones at stride 0), every float dtype, and the
 * bias / ReLU / GELU epilogues, each against a float64 product computed here on the host from the
 * operands' own values. An element may differ from the reference by the dtype's tolerance times
 * Σ|a·b| (plus |bias|), the bound of a float sum's rounding: float32's 2e-5 over k ≤ 300 also fails
 * a product that used TF32.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { cudaTest } from "../_backends.ts";
import { seeded } from "./_host.ts";
import { matmulEpilogue } from "../../src/array/ops/matmul_epilogue.ts";
import { ltMatmul } from "../../src/device/cublaslt.ts";
import type { CudaBackend } from "../../src/device/cuda.ts";
import { planMatmul } from "../../src/array/ops/matmul.ts";
import { checkGrad, randomPair, rng, weightedSum } from "../nn/_host.ts";

type Float = "float32" | "float64" | "float16" | "bfloat16";
const FLOATS: readonly Float[] = ["float32", "float64", "float16", "bfloat16"];
/** Relative to Σ|a·b|: float32 accumulation over k ≤ 300 (TF32 would be 1e-3), the 16-bit outputs' rounding. */
const TOLERANCE: Record<Float, number> = { float32: 2e-5, float64: 1e-11, float16: 1.5e-3, bfloat16: 8e-3 };

/** The dtypes the current backend's device has. */
function floats(): Float[] {
  const b = ga.zeros(1).backend;
  return FLOATS.filter((d) => b.supports(d));
}

/** Random values in [-1, 1) of `shape`, rounded to `dtype` on the device. */
function operand(shape: number[], dtype: Float, seed: number): ga.GPUArray {
  const next = seeded(seed);
  const values = Float32Array.from({ length: shape.reduce((p, d) => p * d, 1) }, () => 2 * next() - 1);
  using f32 = ga.toGpu(values, shape);
  return f32.astype(dtype);
}

/** A host array: C-order float64 values (read through a widening, exact conversion). */
interface Host {
  readonly shape: readonly number[];
  readonly data: Float64Array;
}

function host(x: ga.GPUArray): Host {
  using wide = x.astype("float64");
  return { shape: [...x.shape], data: wide.get() as Float64Array };
}

/** NumPy's matmul of `a` and `b` (batches broadcast, 1-D operands promoted), with Σ|a·b| per element. */
function reference(a: Host, b: Host): Host & { readonly bound: Float64Array } {
  const as = a.shape.length === 1 ? [1, a.shape[0]!] : a.shape;
  const bs = b.shape.length === 1 ? [b.shape[0]!, 1] : b.shape;
  const [m, k] = as.slice(-2) as [number, number], n = bs[bs.length - 1]!;
  const nb = Math.max(as.length, bs.length) - 2;
  const pad = (s: readonly number[]) => [...new Array(nb - (s.length - 2)).fill(1), ...s.slice(0, -2)];
  const pa = pad(as), pb = pad(bs), batch = pa.map((d, i) => Math.max(d, pb[i]!));
  const count = batch.reduce((p, d) => p * d, 1);
  const data = new Float64Array(count * m * n), bound = new Float64Array(count * m * n);
  for (let flat = 0; flat < count; flat++) {
    let rest = flat, ia = 0, ib = 0, sa = 1, sb = 1;
    for (let d = nb - 1; d >= 0; d--) {
      const i = rest % batch[d]!;
      rest = Math.floor(rest / batch[d]!);
      if (pa[d] !== 1) ia += i * sa;
      if (pb[d] !== 1) ib += i * sb;
      sa *= pa[d]!;
      sb *= pb[d]!;
    }
    const offA = ia * m * k, offB = ib * k * n, offC = flat * m * n;
    for (let r = 0; r < m; r++) {
      for (let c = 0; c < n; c++) {
        let s = 0, t = 0;
        for (let p = 0; p < k; p++) {
          const v = a.data[offA + r * k + p]! * b.data[offB + p * n + c]!;
          s += v;
          t += Math.abs(v);
        }
        data[offC + r * n + c] = s;
        bound[offC + r * n + c] = t;
      }
    }
  }
  const shape = [...batch, ...(a.shape.length === 1 ? [] : [m]), ...(b.shape.length === 1 ? [] : [n])];
  return { shape, data, bound };
}

/** Asserts `got` is within the dtype's tolerance of `want` at every element. */
function assertClose(
  got: ga.GPUArray,
  want: Host & { bound: Float64Array },
  dtype: Float,
  what: string,
): void {
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  assert.equal(got.dtype, dtype, `${what}: dtype`);
  const values = host(got).data, tol = TOLERANCE[dtype];
  for (let i = 0; i < values.length; i++) {
    const err = Math.abs(values[i]! - want.data[i]!);
    if (!(err <= tol * want.bound[i]! + 1e-30)) {
      assert.fail(
        `${what}: element ${i} is ${values[i]}, the float64 reference ${
          want.data[i]
        } (error ${err}, allowed ${tol * want.bound[i]!})`,
      );
    }
  }
}

function check(a: ga.GPUArray, b: ga.GPUArray, dtype: Float, what: string, out?: ga.GPUArray): void {
  const want = reference(host(a), host(b));
  using got = ga.matmul(a, b, out === undefined ? {} : { out });
  assertClose(got, want, dtype, what);
}

eachBackend(
  "matmul() of odd sizes from 1 to 300 in float32, float64, float16 and bfloat16 matches the float64 host reference",
  () => {
    const sizes: [number, number, number][] = [
      [1, 1, 1],
      [1, 7, 1],
      [3, 5, 7],
      [17, 1, 33],
      [31, 63, 15],
      [127, 129, 1],
      [1, 300, 299],
      [65, 255, 97],
      [255, 299, 257],
    ];
    for (const dtype of floats()) {
      for (const [m, k, n] of sizes) {
        using a = operand([m, k], dtype, m + 7 * k), b = operand([k, n], dtype, n + 11 * k);
        check(a, b, dtype, `${dtype} [${m}, ${k}] @ [${k}, ${n}]`);
      }
    }
  },
);

eachBackend(
  "matmul() of transposed, offset and column-major-out views matches the float64 host reference",
  () => {
    for (const dtype of floats()) {
      using a = operand([45, 33], dtype, 1), b = operand([45, 29], dtype, 2), c = operand([29, 33], dtype, 3);
      check(a.T, b, dtype, `${dtype} a.T @ b`);
      check(a, c.T, dtype, `${dtype} a @ c.T`);
      check(c, a.T, dtype, `${dtype} c @ a.T`);
      check(b.T, a, dtype, `${dtype} b.T @ a`);
      // Offset views: one element in (2 bytes for 16-bit dtypes), so no 16-byte alignment.
      using rows = a.slice("1:"), cols = b.slice(":, 1:");
      check(rows.T, b.slice("1:"), dtype, `${dtype} a[1:].T @ b[1:]`);
      check(cols.T, a, dtype, `${dtype} b[:, 1:].T @ a`);
      // A column-major out: the product is computed transposed.
      using outT = ga.empty([45, 29], dtype);
      check(c, a.T, dtype, `${dtype} c @ a.T into a transposed out`, outT.T);
    }
  },
);

eachBackend("matmul() of batches, broadcast and transposed, matches the float64 host reference", () => {
  for (const dtype of floats()) {
    const cases: [number[], number[]][] = [
      [[4, 33, 17], [4, 17, 29]],
      [[1, 33, 17], [5, 17, 29]],
      [[5, 33, 17], [17, 29]],
      [[33, 17], [6, 17, 29]],
      [[3, 1, 9, 7], [1, 4, 7, 5]],
      [[16, 32, 32], [16, 32, 32]],
    ];
    for (const [sa, sb] of cases) {
      using a = operand(sa, dtype, sa.length), b = operand(sb, dtype, 10 + sb.length);
      check(a, b, dtype, `${dtype} [${sa}] @ [${sb}]`);
    }
    using a = operand([6, 19, 23], dtype, 5), b = operand([6, 19, 13], dtype, 6);
    check(a.swapaxes(-1, -2), b, dtype, `${dtype} a.swapaxes(-1, -2) @ b`);
    using bt = b.swapaxes(-1, -2);
    check(bt, a, dtype, `${dtype} b.swapaxes(-1, -2) @ a`);
  }
});

const GELU_SCALE = Math.sqrt(2 / Math.PI);
const ACTIVATIONS: Record<string, (x: number) => number> = {
  "": (x) => x,
  relu: (x) => Math.max(x, 0),
  gelu: (x) => 0.5 * x * (1 + Math.tanh(GELU_SCALE * (x + 0.044715 * x ** 3))),
};

eachBackend(
  "matmulEpilogue() adds the bias and applies ReLU or GELU (tanh) as the float64 host reference does",
  () => {
    const epilogues = ["bias", "relu", "gelu", "biasRelu", "biasGelu"] as const;
    for (const dtype of floats()) {
      for (const [sa, sb] of [[[37, 45], [45, 29]], [[3, 20, 16], [16, 24]], [[3, 20, 16], [3, 16, 24]]]) {
        using a = operand(sa!, dtype, 3), b = operand(sb!, dtype, 4);
        const n = sb![sb!.length - 1]!;
        using bias = operand([n], dtype, 5);
        const product = reference(host(a), host(b)), biases = host(bias).data;
        for (const epilogue of epilogues) {
          const withBias = epilogue.startsWith("bias");
          const act = ACTIVATIONS[epilogue.replace(/^bias/, "").toLowerCase()]!;
          const data = product.data.map((v, i) => act(v + (withBias ? biases[i % n]! : 0)));
          // GELU's and ReLU's slopes are at most 1.13: the product's rounding bound, scaled.
          const bound = product.bound.map((t, i) => 1.2 * (t + (withBias ? Math.abs(biases[i % n]!) : 0)));
          using got = matmulEpilogue(a, b, { epilogue, ...(withBias ? { bias } : {}) });
          assertClose(
            got,
            { shape: product.shape, data, bound },
            dtype,
            `${dtype} [${sa}] @ [${sb}] ${epilogue}`,
          );
        }
      }
    }
  },
);

eachBackend("matmulEpilogue() writes into out, and converts a bias of another dtype", () => {
  using a = operand([9, 7], "float32", 1), b = operand([7, 5], "float32", 2);
  using bias = ga.asarray([1, -2, 3, -4, 5], "float64");
  using out = ga.full([9, 5], 123);
  const product = reference(host(a), host(b));
  const got = matmulEpilogue(a, b, { epilogue: "biasRelu", bias, out });
  assert.equal(got, out);
  const data = product.data.map((v, i) => Math.max(0, v + [1, -2, 3, -4, 5][i % 5]!));
  const bound = product.bound.map((t) => t + 5);
  assertClose(out, { shape: product.shape, data, bound }, "float32", "biasRelu into out");
});

eachBackend(
  "gradients of matmulEpilogue() with bias and ReLU match central finite differences; GELU's is refused",
  () => {
    const random = rng(31);
    const [a] = randomPair([2, 6, 5], random),
      [b] = randomPair([5, 4], random),
      [bias] = randomPair([4], random);
    const [r] = randomPair([2, 6, 4], random);
    for (const epilogue of ["bias", "biasRelu", "relu"] as const) {
      const withBias = epilogue.startsWith("bias");
      checkGrad(
        (a, b, bias) => weightedSum(matmulEpilogue(a, b, { epilogue, ...(withBias ? { bias } : {}) }), r),
        [a, b, bias],
        withBias ? [0, 1, 2] : [0, 1],
        random,
        `matmulEpilogue ${epilogue}`,
      );
    }
    assert.throws(
      () => ga.grad((a: ga.GPUArray) => ga.sum(matmulEpilogue(a, b, { epilogue: "gelu" }), [0, 1, 2]))(a),
      /matmulEpilogue gelu/,
    );
  },
);

eachBackend(
  "matmulEpilogue() refuses a missing or misshapen bias, unknown epilogues and integer products",
  () => {
    using a = ga.ones([4, 3]), b = ga.ones([3, 5]);
    assert.throws(() => matmulEpilogue(a, b, { epilogue: "biasGelu" }), {
      name: "TypeError",
      message: /without a bias: pass \{ bias \} of the product's last extent/,
    });
    assert.throws(() => matmulEpilogue(a, b, { epilogue: "relu", bias: ga.ones([5]) }), {
      name: "TypeError",
      message: /use "biasRelu", or leave the bias out/,
    });
    assert.throws(() => matmulEpilogue(a, b, { epilogue: "bias", bias: ga.ones([4]) }), {
      name: "RangeError",
      message:
        "Cannot matmulEpilogue with a bias of shape [4]: it must be 1-D of the product's last extent, [5]",
    });
    assert.throws(() => matmulEpilogue(a, b, { epilogue: "silu" as never }), {
      name: "TypeError",
      message: /epilogue "silu": use one of "bias", "relu", "gelu", "biasRelu", "biasGelu"/,
    });
    using ints = ga.ones([4, 3], "int32");
    assert.throws(() => matmulEpilogue(ints, ints.T, { epilogue: "relu" }), {
      name: "TypeError",
      message: /their product is int32; the epilogues are for float products/,
    });
  },
);

cudaTest(
  "ltMatmul() runs each float dtype, a strided batch and every epilogue on cuBLASLt, on a stream of its own too",
  () => {
    ga.useBackend("cuda");
    const epilogues = [undefined, "bias", "relu", "gelu", "biasRelu", "biasGelu"] as const;
    const run = () => {
      for (const dtype of ["float32", "float16", "bfloat16"] as const) {
        for (const shapes of [[[64, 96], [96, 32]], [[8, 64, 96], [8, 96, 32]]] as const) {
          using a = operand([...shapes[0]], dtype, 1), b = operand([...shapes[1]], dtype, 2);
          using bias = operand([32], dtype, 3);
          const product = reference(host(a), host(b)), biases = host(bias).data;
          for (const epilogue of epilogues) {
            using plan = planMatmul(a, b, undefined, "cublas");
            const e = epilogue === undefined ? undefined : {
              epilogue,
              bias: epilogue.startsWith("bias") ? { buffer: bias.buffer, offset: 0 } : undefined,
            };
            const ran = ltMatmul(
              a.backend as CudaBackend,
              plan.gemm!,
              e === undefined ? {} : { epilogue: e },
            );
            assert.ok(ran, `${dtype} [${shapes}] ${epilogue ?? "no epilogue"}: cuBLASLt ran it`);
            const withBias = epilogue?.startsWith("bias") ?? false;
            const act = ACTIVATIONS[(epilogue ?? "").replace(/^bias/, "").toLowerCase()]!;
            const data = product.data.map((v, i) => act(v + (withBias ? biases[i % 32]! : 0)));
            const bound = product.bound.map((t, i) => 1.2 * (t + (withBias ? Math.abs(biases[i % 32]!) : 0)));
            assertClose(plan.out, { shape: product.shape, data, bound }, dtype, `${dtype} ${epilogue}`);
            plan.out.free();
          }
        }
      }
      using a = operand([50, 70], "float64", 1), b = operand([70, 30], "float64", 2);
      using plan = planMatmul(a, b, undefined, "cublas");
      assert.ok(ltMatmul(a.backend as CudaBackend, plan.gemm!), "float64 ran on cuBLASLt");
      assertClose(plan.out, reference(host(a), host(b)), "float64", "float64 on cuBLASLt");
      plan.out.free();
    };
    run();
    using stream = new cuda.Stream({ nonBlocking: true });
    ga.withStream(stream, run);
    stream.synchronize();
  },
);
