/**
 * A matrix product with an epilogue — a bias added along the last axis, then ReLU or GELU — as a
 * layer's forward pass computes it (`gelu(x @ w + b)`). On CUDA it is one cuBLASLt call
 * (`CUBLASLT_EPILOGUE_RELU_BIAS` and the others): the epilogue runs in the product's kernel, on its
 * float accumulator, before the result is rounded to the dtype. Elsewhere (OpenCL, a product cuBLASLt
 * has no algorithm for, a column-major `out`) the product is {@link matmul}'s and the epilogue
 * elementwise operations on its result.
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { resultType } from "../core/dtypes.ts";
import { copyOf } from "../exec/loop.ts";
import { astype } from "./assign.ts";
import { matmul, matmulVjp, planMatmul } from "./matmul.ts";
import { record, refuseTrackedWrite, unrecorded, type Vjp } from "../grad/tape.ts";
import { add, maximum, mul, tanh } from "../api/elementwise.ts";
import type { Epilogue } from "../../device/gemm.ts";
import { checkOptions } from "../../kernel/options.ts";

const EPILOGUES: readonly Epilogue[] = ["bias", "relu", "gelu", "biasRelu", "biasGelu"];

/** Options of {@link matmulEpilogue}. */
export interface MatmulEpilogueOptions {
  /** What is applied to each element of the product (see {@link Epilogue}). */
  readonly epilogue: Epilogue;
  /**
   * For `"bias"`, `"biasRelu"` and `"biasGelu"`: a 1-D array of the product's last extent, added to
   * every row (converted to the product's dtype first where it differs).
   * Default: none.
   */
  readonly bias?: GPUArray;
  /** An array of the product's shape and dtype to write into (a new one by default). */
  readonly out?: GPUArray;
}

/** √(2/π), GELU's tanh approximation's scale. */
const GELU_SCALE = Math.sqrt(2 / Math.PI);

/** GELU (tanh approximation, as cuBLASLt's) of `y`, in place, through elementwise operations. */
function geluInPlace(y: GPUArray): void {
  using t = mul(y, y);
  mul(t, 0.044715, { out: t });
  add(t, 1, { out: t });
  mul(t, y, { out: t });
  mul(t, GELU_SCALE, { out: t });
  tanh(t, { out: t });
  add(t, 1, { out: t });
  mul(t, 0.5, { out: t });
  mul(y, t, { out: y });
}

/**
 * `matmul(a, b)` (NumPy's rules) with `options.epilogue` applied to each element: `"bias"` adds
 * `bias[j]` to column `j` (`x @ w + b`, as a linear layer), `"relu"` is `max(x, 0)`, `"gelu"` GELU's
 * tanh approximation `x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (PyTorch's `gelu(approximate="tanh")`),
 * `"biasRelu"` and `"biasGelu"` add the bias first. Float dtypes only. On CUDA it is one cuBLASLt
 * product whose epilogue runs on the float accumulator; elsewhere the product and elementwise
 * operations on it. Differentiable (`ga.grad`) with the bias and ReLU epilogues.
 *
 * @throws {TypeError} for an unknown epilogue, a missing or unneeded bias, a bias on another backend,
 *   or a product that is not of a float dtype.
 * @throws {RangeError} for a bias that is not 1-D of the product's last extent, and as {@link matmul}.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * import { matmulEpilogue } from "./matmul_epilogue.ts";
 * const x = ga.asarray([[1, -2], [3, 4]]), w = ga.asarray([[1, 0, 1], [0, 1, 1]]);
 * const y = matmulEpilogue(x, w, { epilogue: "biasRelu", bias: ga.asarray([0, 1, -10]) });
 * console.log(y.get()); // Float32Array [1, 0, 0, 3, 5, 0]
 * ```
 */
export function matmulEpilogue(a: GPUArray, b: GPUArray, options: MatmulEpilogueOptions): GPUArray {
  if (options?.out !== undefined) {
    refuseTrackedWrite("matmulEpilogue into out", options.out, [a, b, options.bias]);
  }
  const y = unrecorded(() => compute(a, b, options));
  const { epilogue, bias } = options;
  record(`matmulEpilogue ${epilogue}`, [a, b, bias], y, epilogueVjp(epilogue));
  return y;
}

/**
 * The gradient of a product with a bias or ReLU epilogue: ReLU passes the gradient where the result
 * is positive, the product's rule takes it from there, and the bias gets it summed over the rows.
 * None for GELU, whose derivative needs the product before it, which is not kept (differentiating
 * through it is then an error naming it).
 */
function epilogueVjp(epilogue: Epilogue): Vjp | undefined {
  if (epilogue === "gelu" || epilogue === "biasGelu") return undefined;
  const relu = epilogue === "relu" || epilogue === "biasRelu";
  return (g, c) => {
    const passed = relu ? c.ops.where(c.output.gt(0), g, 0) : g;
    const [da, db] = matmulVjp(passed, { ...c, inputs: c.inputs.slice(0, 2), need: c.need.slice(0, 2) });
    return [da, db, c.need[2] ? passed : undefined];
  };
}

function compute(a: GPUArray, b: GPUArray, options: MatmulEpilogueOptions): GPUArray {
  checkOptions(options, "matmulEpilogue", "{ epilogue, bias, out }", ["epilogue", "bias", "out"]);
  const { epilogue, out } = options;
  if (!EPILOGUES.includes(epilogue)) {
    throw new TypeError(
      `Cannot matmulEpilogue with epilogue ${JSON.stringify(epilogue)}: use one of ${
        EPILOGUES.map((e) => `"${e}"`).join(", ")
      }`,
    );
  }
  const dtype: DType = resultType(a.dtype, b.dtype);
  if (DTYPES[dtype].kind !== "float") {
    throw new TypeError(
      `Cannot matmulEpilogue ${a.dtype} and ${b.dtype} arrays: their product is ${dtype}; the epilogues are for float products, convert with astype("float32")`,
    );
  }
  const withBias = epilogue.startsWith("bias");
  if (withBias !== (options.bias !== undefined)) {
    throw new TypeError(
      withBias
        ? `Cannot matmulEpilogue with epilogue "${epilogue}" without a bias: pass { bias } of the product's last extent`
        : `Cannot matmulEpilogue with epilogue "${epilogue}" and a bias: use "bias${
          epilogue[0]!.toUpperCase()
        }${epilogue.slice(1)}", or leave the bias out`,
    );
  }
  const n = b.ndim === 1 ? 1 : b.shape[b.ndim - 1]!;
  const made: GPUArray[] = [];
  try {
    let bias = options.bias;
    if (bias !== undefined) {
      if (!(bias instanceof GPUArray) || bias.backend !== a.backend) {
        throw new TypeError(
          `Cannot matmulEpilogue with a bias that is not a GPUArray on ${a.backend.device}: pass one on the operands' backend`,
        );
      }
      if (bias.ndim !== 1 || bias.shape[0] !== n) {
        throw new RangeError(
          `Cannot matmulEpilogue with a bias of shape ${
            showShape(bias.shape)
          }: it must be 1-D of the product's last extent, [${n}]`,
        );
      }
      if (bias.dtype !== dtype) made.push(bias = astype(bias, dtype));
      if (bias.strides[0] !== 1 && n > 1) made.push(bias = copyOf(bias));
    }
    const blas = a.backend.blas;
    let target = out;
    if (blas?.gemmEpilogue !== undefined && blas.dtypes.includes(dtype)) {
      using plan = planMatmul(a, b, out, "cublas");
      const gemm = plan.gemm;
      const e = { epilogue, bias: bias && { buffer: bias.buffer, offset: bias.offset } };
      if (gemm !== undefined && !plan.transposed && blas.gemmEpilogue(gemm, e)) {
        plan.writeBack();
        return plan.out;
      }
      target = plan.out;
    }
    const y = matmul(a, b, { out: target });
    if (bias !== undefined) add(y, bias, { out: y });
    const activation = epilogue.toLowerCase();
    if (activation.endsWith("relu")) maximum(y, 0, { out: y });
    else if (activation.endsWith("gelu")) geluInPlace(y);
    return y;
  } finally {
    for (const t of made) t.free();
  }
}
