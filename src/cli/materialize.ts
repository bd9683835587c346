/**
 * The arrays of `--arg` values for pointer parameters: generators (`rand(n)`, `zeros(h, w)`,
 * `linspace(0, 1, n)`, seeded so runs repeat), lists, and NumPy files (`@x.npy`).
 *
 * @module
 */

import { type DType, DTYPES, type TypedArray } from "../kernel/dtype.ts";
import { bfloat16Bits } from "../kernel/bfloat16.ts";
import { whereRelative } from "./kernel_file.ts";
import { NpyError, readNpy } from "../kernel/npy.ts";
import { UsageError } from "./usage_error.ts";
import type { ArgEnv, ArgExpr, FileNode, ScalarExpr, ScalarTarget } from "./values.ts";
import { convert, evaluate, failer, FLOATS, type Value } from "./evaluate.ts";
import { fnv1a } from "./summary.ts";

/**
 * How {@linkcode materializeArray} makes random numbers and reads files.
 *
 * @example
 * ```ts
 * import type { MaterializeOptions } from "./materialize.ts";
 * const options: MaterializeOptions = { seed: 42, readFile: (path) => Deno.readFileSync(path) };
 * console.log(options.seed); // 42
 * ```
 */
export interface MaterializeOptions {
  /** The seed of `rand` and `randn` (default 0), an integer taken modulo 2^64. */
  seed?: number | bigint;
  /** Reads a file for `@path`; defaults to `Deno.readFileSync`. */
  readFile?: (path: string) => Uint8Array;
}

/**
 * An array made from a value: its elements (bfloat16 as bits) and its shape.
 *
 * @example
 * ```ts
 * import { type Materialized, materializeArray } from "./materialize.ts";
 * import { parseArgValue } from "./values.ts";
 * const target = { dtype: "int32", param: "a" } as const;
 * const array: Materialized = materializeArray(parseArgValue("ones(2, 3)"), new Map(), target);
 * console.log(array.shape); // [2, 3]
 * ```
 */
export interface Materialized {
  /** The elements in C order. */
  data: TypedArray;
  /** The shape, outermost first. */
  shape: number[];
}

/**
 * Makes the array a value describes, for a pointer parameter: runs a generator (seeded, so runs repeat)
 * or loads a `.npy` file, whose dtype must be the parameter's.
 *
 * `rand` is uniform in [0, 1) on the type's grid (53, 24, 11 or 8 bits), `randn` standard normal
 * (Box–Muller), both from xoshiro128** seeded through splitmix64 by the seed and the parameter's name, so
 * two arguments get different numbers and reordering arguments changes nothing. `linspace` includes
 * both ends, like NumPy's.
 *
 * @param expr The parsed value.
 * @param env The scalar arguments sizes may refer to.
 * @param target The parameter (`dtype` is the type it points to).
 * @param options The seed and a file reader.
 * @returns The elements and the shape.
 * @throws {UsageError} If the value is a scalar, a size is not a non-negative integer, an element does not
 * fit the type, `rand`/`randn` target an integer type, the file cannot be read or its dtype differs.
 *
 * @example
 * ```ts
 * import { materializeArray } from "./materialize.ts";
 * import { parseArgValue } from "./values.ts";
 * const env = new Map([["h", 2], ["w", 3]]);
 * const target = { dtype: "float32", param: "x" } as const;
 * const { data, shape } = materializeArray(parseArgValue("rand(h, w)"), env, target);
 * console.log(shape, data.length); // [2, 3] 6
 * ```
 */
export function materializeArray(
  expr: ArgExpr,
  env: ArgEnv,
  target: ScalarTarget,
  options: MaterializeOptions = {},
): Materialized {
  const ctype = target.ctype ?? DTYPES[target.dtype].cuda;
  const prefix = `Cannot use ${target.param}=${expr.source}: `;
  if (expr.kind === "file") return load(expr, target, ctype, prefix, options.readFile ?? Deno.readFileSync);
  if (expr.kind !== "generator") {
    throw new UsageError(
      `${prefix}parameter ${target.param} is a pointer to ${ctype}, so it needs an array, such as ${
        expr.kind === "list" ? "" : `full(n, ${expr.source.trim()}), `
      }rand(n) or @file.npy`,
    );
  }
  const fail = failer(target, expr.source);
  const holds = `parameter ${target.param} points to ${ctype}, which`;
  const element = (value: Value, column: number, what = ""): number | bigint =>
    convert(value, target.dtype, (problem) => fail(`${what}${holds} ${problem}`, column));
  const size = (node: ScalarExpr): number => {
    const value = evaluate(node, env, fail);
    const n = typeof value === "bigint" ? value : Number.isInteger(value) ? BigInt(value) : -1n;
    if (n < 0n) fail(`a size must be a non-negative integer, but this one is ${value}`, node.column);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) fail(`the size ${value} is too large`, node.column);
    return Number(n);
  };
  const { name, args } = expr;
  const shape = (name === "full" ? args.slice(0, -1) : name === "linspace" ? args.slice(2) : args).map(size);
  const count = shape.includes(0) ? 0 : shape.reduce((product, n) => product * n, 1);
  const float = FLOATS[target.dtype];

  // Check everything that can fail before allocating.
  let fill: (i: number) => number | bigint;
  if (name === "zeros" || name === "ones" || name === "full") {
    const last = args[args.length - 1];
    const value = name === "full" ? element(evaluate(last, env, fail), last.column) : name === "ones" ? 1 : 0;
    fill = () => value;
  } else if (name === "arange") {
    if (count > 0) element(BigInt(count - 1), expr.column, `arange(${count}) reaches ${count - 1}, but `);
    fill = (i) => i;
  } else if (name === "linspace") {
    const start = Number(evaluate(args[0], env, fail));
    const stop = Number(evaluate(args[1], env, fail));
    const step = (stop - start) / Math.max(count - 1, 1);
    // As numpy.linspace computes it, with the last element exactly `stop`.
    fill = (i) => {
      const value = i === count - 1 && count > 1 ? stop : i * step + start;
      return element(value, expr.column, `element ${i} is ${value}, but `);
    };
  } else if (float === undefined) {
    return fail(
      `${name} makes floats, but ${holds} is not a float type; use arange, full or @file.npy`,
      expr.column,
    );
  } else if (name === "rand") {
    const random = new Random(options.seed ?? 0, target.param);
    fill = () => random.uniform(float.bits);
  } else {
    const random = new Random(options.seed ?? 0, target.param);
    let spare = NaN;
    fill = (i) => {
      if (i % 2 === 1) return spare;
      const radius = Math.sqrt(-2 * Math.log(1 - random.uniform(53)));
      const angle = 2 * Math.PI * random.uniform(53);
      spare = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    };
  }

  const info = DTYPES[target.dtype];
  let data: TypedArray;
  try {
    data = new info.array(count * info.parts);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const total = shape.reduce((product, n) => product * BigInt(n), 1n);
    return fail(
      `${total} elements of ${info.size} byte${info.size === 1 ? "" : "s"} do not fit in memory`,
      expr.column,
    );
  }
  if (name !== "zeros") {
    const store = storer(data, target.dtype);
    for (let i = 0; i < count; i++) store(i, fill(i));
  }
  return { data, shape };
}

function storer(data: TypedArray, dtype: DType): (i: number, value: number | bigint) => void {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
    return (i, value) => {
      data[i] = BigInt(value);
    };
  }
  const numbers = data as Exclude<TypedArray, BigInt64Array | BigUint64Array>;
  const encode = dtype === "bfloat16" ? bfloat16Bits : (value: number) => value;
  return (i, value) => {
    numbers[i] = encode(Number(value));
  };
}

function load(
  expr: FileNode,
  target: ScalarTarget,
  ctype: string,
  prefix: string,
  readFile: (path: string) => Uint8Array,
): Materialized {
  let bytes: Uint8Array;
  try {
    bytes = readFile(expr.path);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotFound
      ? `there is no file ${expr.path}${whereRelative(expr.path)}`
      : error instanceof Deno.errors.PermissionDenied
      ? `reading ${expr.path} is not permitted; run with --allow-read`
      : `cannot read ${expr.path}: ${error instanceof Error ? error.message : String(error)}`;
    throw new UsageError(prefix + detail, { cause: error });
  }
  const array = readNpyFile(bytes, expr.path);
  if (array.dtype !== target.dtype) {
    const numpy = target.dtype === "bfloat16"
      ? "ml_dtypes.bfloat16"
      : target.dtype === "bool"
      ? "np.bool_"
      : `np.${target.dtype}`;
    throw new UsageError(
      `${prefix}${expr.path} holds ${array.dtype}, but parameter ${target.param} points to ${ctype} ` +
        `(${target.dtype}); convert it with np.save(path, array.astype(${numpy}))`,
    );
  }
  return { data: array.data, shape: array.shape };
}

/** {@link readNpy}, its refusals as the command line's UsageError. */
function readNpyFile(bytes: Uint8Array, path: string): ReturnType<typeof readNpy> {
  try {
    return readNpy(bytes, path);
  } catch (error) {
    if (error instanceof NpyError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

/** xoshiro128** (Blackman and Vigna, https://prng.di.unimi.it/xoshiro128starstar.c), seeded by splitmix64. */
class Random {
  #s = new Uint32Array(4);

  constructor(seed: number | bigint, stream: string) {
    if (typeof seed === "number" && !Number.isSafeInteger(seed)) {
      throw new UsageError(`Cannot use seed ${seed}: the seed must be an integer`);
    }
    let state = BigInt.asUintN(64, BigInt(seed) ^ (BigInt(fnv1a(new TextEncoder().encode(stream))) << 32n));
    for (let i = 0; i < 4; i += 2) {
      state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
      let z = state;
      z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
      z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
      z ^= z >> 31n;
      this.#s[i] = Number(z & 0xffffffffn);
      this.#s[i + 1] = Number(z >> 32n);
    }
    if (this.#s.every((word) => word === 0)) this.#s[0] = 1; // the one state xoshiro cannot leave
  }

  next(): number {
    const s = this.#s;
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }

  /** A uniform number in [0, 1) on a grid of 2^-bits, so it is exact in a type with that many bits. */
  uniform(bits: number): number {
    if (bits <= 32) return (this.next() >>> (32 - bits)) / 2 ** bits;
    return ((this.next() >>> 5) * 2 ** 26 + (this.next() >>> 6)) / 2 ** 53;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
