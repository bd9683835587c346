/**
 * Launch callables of the shape `kernel(arg0, arg1, ..., config)` that allocate nothing per call.
 *
 * Why formal parameters: a rest parameter (`...args`) or `arguments` materialises an array on every
 * call; measured in Deno 2.9, 10 million five-argument calls ran 535 scavenges that way and none with
 * formal parameters. So up to {@link MAX_FIXED_ARGS} arguments are taken as formals and copied into one
 * list made per callable; kernels with more parameters use a rest parameter.
 *
 * Why a list and one call, not a call per argument: V8 shares one feedback vector among all closures
 * of a function literal, so every kernel's callable runs the same optimised code. A per-argument
 * callback would be a call site that sees every kernel's callback (megamorphic, never inlined); a
 * store into a packed array is the same operation for all of them.
 *
 * @module
 */

/** The most kernel arguments taken as formal parameters (more use a slower path that allocates). */
export const MAX_FIXED_ARGS = 16;

/**
 * Runs a launch: `values` holds the arguments, then the value after them (the launch configuration),
 * and `given` is how many values the call passed. The list is the callable's own and is cleared after
 * the call, so `finish` may overwrite its entries.
 */
export type ArgumentsFinish<R> = (values: unknown[], given: number) => R;

/**
 * Makes `(a0, ..., a{n-1}, last) => R` for a kernel of `n` parameters. The call copies its values into
 * one list of `n + 1` entries (the arguments, then `last`) and runs `finish`; the list is cleared after,
 * so no argument is kept past its launch. A call with other than `expected` values copies nothing
 * (every entry reads `undefined`), so a missing or extra argument is reported rather than misread.
 * `finish` may overwrite entries of the list during its call (they are cleared after it either way).
 */
export function fixedArity<R>(
  n: number,
  expected: number,
  finish: ArgumentsFinish<R>,
): (...args: unknown[]) => R {
  // Packed (not holey) from the start, so every callable's stores take the same fast path.
  const values: unknown[] = Array.from({ length: n + 1 }, () => undefined);
  const run = (given: number): R => {
    try {
      return finish(values, given);
    } finally {
      for (let i = 0; i <= n; i++) values[i] = undefined;
    }
  };
  if (n > MAX_FIXED_ARGS) {
    return (...args: unknown[]): R => {
      if (args.length === expected) { for (let k = 0; k <= n; k++) values[k] = args[k]; }
      return run(args.length);
    };
  }
  // deno-fmt-ignore
  return function (
    a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown, a4?: unknown, a5?: unknown, a6?: unknown, a7?: unknown,
    a8?: unknown, a9?: unknown, a10?: unknown, a11?: unknown, a12?: unknown, a13?: unknown, a14?: unknown,
    a15?: unknown, a16?: unknown,
  ): R {
    const given = arguments.length;
    if (given !== expected) return run(given);
    switch (n) {
      case 16: values[16] = a16; // falls through
      case 15: values[15] = a15; // falls through
      case 14: values[14] = a14; // falls through
      case 13: values[13] = a13; // falls through
      case 12: values[12] = a12; // falls through
      case 11: values[11] = a11; // falls through
      case 10: values[10] = a10; // falls through
      case 9: values[9] = a9; // falls through
      case 8: values[8] = a8; // falls through
      case 7: values[7] = a7; // falls through
      case 6: values[6] = a6; // falls through
      case 5: values[5] = a5; // falls through
      case 4: values[4] = a4; // falls through
      case 3: values[3] = a3; // falls through
      case 2: values[2] = a2; // falls through
      case 1: values[1] = a1; // falls through
      default: values[0] = a0;
    }
    return run(given);
  } as (...args: unknown[]) => R;
}
