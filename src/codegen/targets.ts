/**
 * The {@link Target} of each dialect, by name. A new dialect is its target's file and one entry here.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import type { Target } from "./target.ts";
import { CUDA } from "./cuda.ts";
import { OPENCL } from "./opencl.ts";

/**
 * Every target, by dialect.
 *
 * @example
 * ```ts
 * import { TARGETS } from "./targets.ts";
 * console.log(Object.keys(TARGETS)); // ["cuda", "opencl"]
 * ```
 */
export const TARGETS: Readonly<Record<Dialect, Target>> = { cuda: CUDA, opencl: OPENCL };

/**
 * The target of `dialect`.
 *
 * @example
 * ```ts
 * import { targetOf } from "./targets.ts";
 * console.log(targetOf("cuda").kernelHead); // __global__ void
 * ```
 */
export function targetOf(dialect: Dialect): Target {
  return TARGETS[dialect];
}

/**
 * Whether `value` names a dialect there is a target for.
 *
 * @example
 * ```ts
 * import { isDialect } from "./targets.ts";
 * console.log(isDialect("opencl"), isDialect("metal")); // true false
 * ```
 */
export function isDialect(value: unknown): value is Dialect {
  return typeof value === "string" && Object.hasOwn(TARGETS, value);
}

/**
 * The dialects, quoted and joined for a message: `"cuda" or "opencl"`.
 *
 * @example
 * ```ts
 * import { dialectNames } from "./targets.ts";
 * console.log(`pass ${dialectNames()}`); // pass "cuda" or "opencl"
 * ```
 */
export function dialectNames(): string {
  const names = Object.keys(TARGETS).map((name) => `"${name}"`);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}
