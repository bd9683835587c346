/**
 * Launch geometry: how many blocks, how many threads per block, and its validation.
 *
 * @module
 */

import type { Dim3, LaunchConfig } from "../kernel/dims.ts";

/** The most threads a block may have, as on every CUDA device. */
const MAX_BLOCK_THREADS = 1024;

/** A checked launch geometry with all three axes. */
export interface Geometry {
  /** Blocks per axis. */
  readonly grid: readonly [number, number, number];
  /** Threads per block per axis. */
  readonly block: readonly [number, number, number];
}

/** Checks a launch configuration, or throws a TypeError or RangeError naming the field. */
export function geometry(config: LaunchConfig, failure: string): Geometry {
  if (typeof config !== "object" || config === null) {
    throw new TypeError(`${failure}: the launch configuration must be { grid, block }`);
  }
  const block = dims(config.block, "block", failure);
  const threads = block[0] * block[1] * block[2];
  if (threads > MAX_BLOCK_THREADS) {
    throw new RangeError(
      `${failure}: a block of ${threads} threads is more than the ${MAX_BLOCK_THREADS} a GPU runs`,
    );
  }
  return { grid: dims(config.grid ?? 1, "grid", failure), block };
}

function dims(value: Dim3, field: string, failure: string): [number, number, number] {
  const list = typeof value === "number" ? [value] : Array.isArray(value) ? [...value] : undefined;
  if (list === undefined || list.length < 1 || list.length > 3) {
    throw new TypeError(`${failure}: ${field} must be a number or an array of 1 to 3 numbers`);
  }
  const [x, y = 1, z = 1] = list;
  for (const n of [x, y, z]) {
    if (!Number.isInteger(n) || n < 1) {
      throw new RangeError(
        `${failure}: ${field} sizes must be positive integers, got ${JSON.stringify(value)}`,
      );
    }
  }
  return [x!, y!, z!];
}
