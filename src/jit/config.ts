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
    throw new TypeError(
      `${failure}: ${field} must be a number or an array of 1 to 3 numbers, got ${JSON.stringify(value)}`,
    );
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

const OPTIONS = ["grid", "block", "shared", "stream"];

/** Whether `value` is a number or an array of 1 to 3 numbers, each a positive integer. */
function isDims(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && value >= 1;
  if (!Array.isArray(value) || value.length < 1 || value.length > 3) return false;
  for (let i = 0; i < value.length; i++) {
    const n = value[i];
    if (!Number.isInteger(n) || n < 1) return false;
  }
  return true;
}

/**
 * Checks the configuration a GPU launch was given, or throws a TypeError (RangeError for a size)
 * saying what it lacks or has wrong: no block, an array as Numba's `kernel[grid, block]` writes it, a
 * size that is not a positive integer. Allocates nothing where it is right, so launches can call it.
 *
 * @example
 * ```ts
 * import { checkLaunchConfig } from "./config.ts";
 * checkLaunchConfig({ grid: [4], block: [256] }, "Cannot launch kernel \"k\""); // fine
 * try {
 *   checkLaunchConfig({ grid: [4] }, "Cannot launch kernel \"k\"");
 * } catch (e) {
 *   console.log((e as TypeError).message); // ... the launch configuration has no block, the threads per block ...
 * }
 * ```
 */
export function checkLaunchConfig(config: unknown, failure: string, call = "launch"): void {
  if (typeof config === "object" && config !== null) {
    const c = config as LaunchConfig;
    if (isDims(c.block) && (c.grid === undefined || isDims(c.grid))) return;
  }
  const example = `${call}({ grid: [blocks], block: [threads per block] }, ...args)`;
  if (Array.isArray(config)) {
    const numba = config.length === 2
      ? `: write ${call}({ grid: ${JSON.stringify(config[0])}, block: ${
        JSON.stringify(config[1])
      } }, ...args)`
      : `, as ${example}`;
    throw new TypeError(
      `${failure}: the launch configuration is an object, not the list ${
        JSON.stringify(config)
      } (Numba's kernel[grid, block])${numba}`,
    );
  }
  if (typeof config !== "object" || config === null) {
    throw new TypeError(
      `${failure}: the launch configuration must be { grid, block }, as ${example}; got ${
        typeof config === "string" ? JSON.stringify(config) : String(config)
      }`,
    );
  }
  if ((config as LaunchConfig).block === undefined) {
    const others = Object.keys(config).filter((k) => !OPTIONS.includes(k));
    const unknown = others.length === 0
      ? ""
      : ` (${others.map((k) => `"${k}"`).join(", ")} ${
        others.length === 1 ? "is not an option" : "are not options"
      }; the options are ${OPTIONS.join(", ")})`;
    throw new TypeError(
      `${failure}: the launch configuration has no block, the threads per block${unknown}; pass it with the grid, as ${example}`,
    );
  }
  geometry(config as LaunchConfig, failure);
}
