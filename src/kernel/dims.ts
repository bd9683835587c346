/**
 * Launch sizes: a number or a 1–3 element array per dimension, checked before any driver sees them.
 *
 * @module
 */

/** A size in up to three dimensions: `256`, `[256]`, `[16, 16]`, `[8, 8, 4]`. */
export type Dim3 = number | readonly number[];

/** What a launch can queue on: a CUDA stream (`cuda.Stream`). */
export interface StreamLike {
  /** **UNSAFE**: the raw `CUstream`. */
  readonly unsafeHandle: Deno.PointerValue;
}

/**
 * Where and how wide a launch runs: one shape for CUDA functions, OpenCL-backed array kernels and
 * JIT kernels alike (OpenCL reads `grid` and `block` as work-groups and work-items per group).
 */
export interface LaunchConfig {
  /** Blocks in the grid, 1 to 3 dimensions. Default 1. */
  readonly grid?: Dim3;
  /** Threads per block, 1 to 3 dimensions. Required, as in PyCUDA. */
  readonly block: Dim3;
  /** Dynamic shared memory per block, in bytes (CUDA). Default 0. */
  readonly shared?: number;
  /** The stream to queue the launch on (CUDA). Default: the legacy default stream. */
  readonly stream?: StreamLike;
}

/** The largest sizes a device accepts. */
export interface DimLimits {
  /** Largest block (work-group) extent per dimension. */
  readonly block: readonly [number, number, number];
  /** Largest number of threads in one block. */
  readonly threadsPerBlock: number;
  /** Largest grid extent per dimension (in blocks). */
  readonly grid: readonly [number, number, number];
}

const AXES = ["x", "y", "z"];

/**
 * Reads `dim` into `out[at..at+2]`, checking that each extent is a positive integer.
 * Nothing is allocated, so launches can call it every time.
 *
 * @throws {TypeError} when `dim` is not a number or an array of one to three numbers.
 * @throws {RangeError} when an extent is not a positive integer below 2^32.
 */
export function readDim3(
  dim: Dim3 | undefined,
  out: Uint32Array,
  at: number,
  what: string,
  kernel: string,
): void {
  if (dim === undefined) {
    out[at] = 1;
    out[at + 1] = 1;
    out[at + 2] = 1;
    return;
  }
  if (typeof dim === "number") {
    out[at] = checkExtent(dim, 0, what, kernel);
    out[at + 1] = 1;
    out[at + 2] = 1;
    return;
  }
  if (!Array.isArray(dim) || dim.length < 1 || dim.length > 3) {
    throw new TypeError(
      `Cannot launch ${kernel}(): ${what} must be a number or an array of 1 to 3 numbers, got ${
        JSON.stringify(dim)
      }`,
    );
  }
  out[at] = checkExtent(dim[0], 0, what, kernel);
  out[at + 1] = dim.length > 1 ? checkExtent(dim[1], 1, what, kernel) : 1;
  out[at + 2] = dim.length > 2 ? checkExtent(dim[2], 2, what, kernel) : 1;
}

function checkExtent(v: unknown, axis: number, what: string, kernel: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 0xffffffff) {
    throw new RangeError(
      `Cannot launch ${kernel}(): ${what}.${AXES[axis]} must be a positive integer, got ${v}`,
    );
  }
  return v;
}

/**
 * Checks a grid and block (as written by {@link readDim3} into `dims[0..5]`) against a device's limits.
 *
 * @throws {RangeError} naming the extent that is too large and the device's limit.
 */
export function checkLimits(dims: Uint32Array, limits: DimLimits, device: string, kernel: string): void {
  for (let a = 0; a < 3; a++) {
    if (dims[a]! > limits.grid[a]!) {
      throw new RangeError(
        `Cannot launch ${kernel}(): grid.${AXES[a]} = ${dims[a]} exceeds ${device}'s limit of ${
          limits.grid[a]
        }`,
      );
    }
    if (dims[3 + a]! > limits.block[a]!) {
      throw new RangeError(
        `Cannot launch ${kernel}(): block.${AXES[a]} = ${dims[3 + a]} exceeds ${device}'s limit of ${
          limits.block[a]
        }`,
      );
    }
  }
  const threads = dims[3]! * dims[4]! * dims[5]!;
  if (threads > limits.threadsPerBlock) {
    throw new RangeError(
      `Cannot launch ${kernel}(): a block of ${dims[3]}×${dims[4]}×${
        dims[5]
      } = ${threads} threads exceeds ${device}'s limit of ${limits.threadsPerBlock} per block`,
    );
  }
}
