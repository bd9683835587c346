/**
 * Evenly spaced values and coordinate grids: `linspace` (one loop computing each value from its index,
 * as NumPy computes it) and `meshgrid` (broadcast views of the inputs).
 *
 * @module
 */

import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { activeBackend } from "../../device/active.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { describe } from "../core/describe.ts";
import { castTo, cType, mathFn } from "../../codegen/c.ts";
import { targetOf } from "../../codegen/targets.ts";
import { runLoop } from "../exec/loop.ts";
import { scalarValue } from "../ops/ufunc.ts";
import { broadcastTo, copy, ravel, reshape } from "../ops/views.ts";
import { DTYPE, numberSlot, optionsOf } from "../core/axis_args.ts";

/**
 * Options of {@link linspace}.
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const options: ga.LinspaceOptions<"float64"> = { endpoint: false, dtype: "float64" };
 * const x = ga.linspace(0, 1, 4, options); // [0, 0.25, 0.5, 0.75]
 * ```
 */
export interface LinspaceOptions<D extends DType = DType> {
  /** How many values (default 50); also given by position, after `stop`. */
  readonly num?: number;
  /** Whether `stop` is the last value (default true); if not, the values stop one step before it. */
  readonly endpoint?: boolean;
  /** The result's dtype (default float32). Integer dtypes take the floor, as NumPy 2. */
  readonly dtype?: D;
}

/**
 * `num` evenly spaced values from `start` to `stop` (NumPy's `linspace`): computed in float64 where the
 * device has it (else float32) as NumPy computes them, `start + i * step` with the last value exactly
 * `stop`, then converted to `dtype` (float32 by default; integer dtypes take the floor). The dtype is
 * given in the options or by position after `num`; `endpoint` only in the options (NumPy's fourth
 * positional argument is `endpoint`, so `linspace(0, 1, 5, false)` is refused rather than guessed).
 *
 * @throws {RangeError} for a negative or fractional `num`.
 * @throws {TypeError} for a boolean after `num` (write `{ endpoint: false }`).
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * console.log(ga.linspace(0, 1, 5).get()); // Float32Array [0, 0.25, 0.5, 0.75, 1]
 * const x = ga.linspace(0, 2 * Math.PI, 100, { endpoint: false, dtype: "float64" });
 * const y = ga.linspace(0, 1, 5, "float64"); // also { dtype: "float64" }
 * ```
 */
export function linspace<D extends DType = "float32">(
  start: number,
  stop: number,
  num?: number | LinspaceOptions<D>,
  options?: LinspaceOptions<D>,
): GPUArray<D>;
/** `linspace(start, stop, num, dtype)`: the dtype by position after `num`. */
export function linspace<D extends DType>(
  start: number,
  stop: number,
  num: number | undefined,
  dtype: D,
): GPUArray<D>;
export function linspace(start: number, stop: number, ...args: unknown[]): GPUArray {
  if (typeof args[1] === "boolean") {
    throw new TypeError(
      `Cannot call linspace() with ${
        args[1]
      } after num: NumPy's fourth argument is endpoint; give it by name, { endpoint: ${args[1]} }`,
    );
  }
  const options = optionsOf<LinspaceOptions>(
    "call linspace()",
    args,
    [numberSlot("num"), DTYPE],
    ["num", "endpoint", "dtype"],
    "{ endpoint: false }",
  );
  const num = options.num ?? 50;
  if (!Number.isSafeInteger(num) || num < 0) {
    throw new RangeError(
      `Cannot make ${describe(num)} values with linspace(): give a non-negative integer count`,
    );
  }
  if (!Number.isFinite(start) || !Number.isFinite(stop)) {
    throw new RangeError(
      `Cannot make values from ${describe(start)} to ${describe(stop)} with linspace(): give finite bounds`,
    );
  }
  const endpoint = options.endpoint ?? true;
  const out = new GPUArray(activeBackend(), num, options.dtype ?? "float32");
  if (num === 0) return out;
  const div = endpoint ? num - 1 : num, delta = stop - start, step = delta / div;
  // NumPy: i * step + start; (i / div) * delta where step underflows to 0; i * delta when div is 0.
  const [over, times] = div === 0 ? [1, delta] : step === 0 && delta !== 0 ? [div, delta] : [1, step];
  const dialect = out.backend.dialect;
  const compute: DType = out.backend.supports("float64") ? "float64" : "float32";
  const t = cType(compute, dialect);
  const floor = DTYPES[out.dtype].kind === "int" || DTYPES[out.dtype].kind === "uint";
  const scalar = (value: number) => ({ value, dtype: compute });
  runLoop(
    {
      key: `linspace${floor ? "floor" : ""}`,
      arrays: [out],
      written: [true],
      scalars: [
        scalar(start),
        scalar(over),
        scalar(times),
        scalar(stop),
        { value: scalarValue(endpoint && num > 1 ? num - 1 : -1, "int64"), dtype: "int64" },
      ],
      // The product rounds before the sum, as in NumPy: never fused into one multiply-add, which a
      // floor would show (CUDA's __dmul_rn is never fused; OpenCL turns contraction off).
      helpers: targetOf(dialect).noContract,
      statement: ([y], [from, by, scale, last, lastIndex], i) => {
        const v = floor ? `${mathFn("floor", compute, dialect)}(v)` : "v";
        const ratio = `(${t})(${i}) / ${by}`;
        const product = targetOf(dialect).roundedOps(compute)?.mul(ratio, scale) ?? `(${ratio}) * ${scale}`;
        return `{ ${t} v = ${product} + ${from};
        if ((${cType("int64", dialect)})(${i}) == ${lastIndex}) v = ${last};
        ${y} = ${castTo(v, out.dtype, dialect)}; }`;
      },
    },
    out.shape,
    "linspace",
  );
  return out;
}

/** Options of {@link meshgrid}. */
export interface MeshgridOptions {
  /** `"xy"` (default): the first two outputs' axes are (y, x), as for images; `"ij"`: matrix order. */
  readonly indexing?: "xy" | "ij";
  /** Whether each output keeps extent 1 along the other inputs' axes rather than broadcasting (default false). */
  readonly sparse?: boolean;
  /** Whether the outputs are copies you can write (default false: read-only broadcast views). */
  readonly copy?: boolean;
}

/**
 * Coordinate arrays from 1-D coordinate vectors (NumPy's `meshgrid`; inputs are flattened): output k
 * holds input k along its own axis. The outputs are broadcast views of the inputs, as NumPy's with
 * `copy=False` (no memory of their own, and not writable: write into a `copy()`, or pass `copy: true`).
 *
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const [x, y] = ga.meshgrid(ga.arange(3), ga.arange(2)); // both shape [2, 3]
 * const [i, j] = ga.meshgrid(ga.arange(3), ga.arange(2), { indexing: "ij" }); // both shape [3, 2]
 * ```
 */
export function meshgrid(...args: [...GPUArray[], MeshgridOptions] | GPUArray[]): GPUArray[] {
  const last = args[args.length - 1];
  const options: MeshgridOptions = last !== undefined && !(last instanceof GPUArray) ? last : {};
  const arrays = (options === last ? args.slice(0, -1) : args) as GPUArray[];
  arrays.forEach((a, i) => {
    if (!(a instanceof GPUArray)) {
      throw new TypeError(`Cannot make a grid from argument ${i}: pass GPUArrays`);
    }
  });
  const indexing = options.indexing ?? "xy";
  if (indexing !== "xy" && indexing !== "ij") {
    throw new RangeError(`Cannot make a grid with indexing "${indexing}": use "xy" or "ij"`);
  }
  const ndim = arrays.length;
  // Each input's own axis; "xy" swaps the first two.
  const axisOf = (i: number) => (indexing === "xy" && ndim > 1 && i < 2 ? 1 - i : i);
  const vectors = arrays.map((a, i) => {
    using flat = ravel(a);
    return reshape(flat, Array.from({ length: ndim }, (_, k) => (k === axisOf(i) ? -1 : 1)));
  });
  const shape = new Array<number>(ndim);
  arrays.forEach((a, i) => shape[axisOf(i)] = a.size);
  return vectors.map((v) => {
    const grid = options.sparse === true ? v : broadcastTo(v, shape);
    if (grid !== v) v.free(); // the broadcast view holds the memory
    if (options.copy !== true) return grid;
    const writable = copy(grid);
    grid.free();
    return writable;
  });
}
