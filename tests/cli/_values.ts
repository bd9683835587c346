/**
 * Helpers for the tests of `--arg` values (`values_*_test.ts`): an environment of scalar and array
 * arguments, the scalar or array a value gives for a parameter of a dtype, and an assertion that a
 * call throws a UsageError with a given message.
 */

import assert from "node:assert/strict";
import { UsageError } from "../../src/cli/usage_error.ts";
import { type ArgEnv, parseArgValue } from "../../src/cli/values.ts";
import { evaluateScalar } from "../../src/cli/evaluate.ts";
import { materializeArray, type Materialized, type MaterializeOptions } from "../../src/cli/materialize.ts";
import type { DType } from "../../src/kernel/dtype.ts";

/** The arguments given so far: scalars n, m, half and big, and an array x. */
export const env: ArgEnv = new Map<string, number | bigint | Float32Array>([
  ["n", 1048576],
  ["m", 5],
  ["half", 0.5],
  ["big", 2n ** 63n],
  ["x", new Float32Array(4)],
]);

/** The value of `text` for a scalar parameter `param` of `dtype`. */
export function scalar(text: string, dtype: DType = "float64", param = "v"): number | bigint {
  return evaluateScalar(parseArgValue(text, param), env, { dtype, param });
}

/** The array `text` makes for a pointer parameter `a` of `dtype`. */
export function array(
  text: string,
  dtype: DType = "float32",
  options: MaterializeOptions = {},
): Materialized {
  return materializeArray(parseArgValue(text, "a"), env, { dtype, param: "a" }, options);
}

/** Asserts that `fn` throws a UsageError whose message is `message` (a string) or matches it. */
export function assertUsageError(fn: () => unknown, message: string | RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${error}`);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}
