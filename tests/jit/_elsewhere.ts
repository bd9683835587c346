/** A kernel body with an unsupported construct, defined in a file other than the one that calls jit(). */

import type { JitParam } from "../../src/jit/mod.ts";

/** Writes `{ v: 1 }.v`: an object literal, which the JIT rejects. */
export const objectLiteralBody = (out: JitParam): void => {
  out[0] = { v: 1 }.v;
};
