import assert from "node:assert/strict";
import { fixedArity, MAX_FIXED_ARGS } from "../../src/kernel/fixed_arity.ts";

function recorder(n: number) {
  const seen: unknown[] = new Array(n);
  const fn = fixedArity(n, n + 1, {
    arg: (i, v) => (seen[i] = v),
    finish: (last, given) => ({ args: [...seen], last, given }),
  });
  return fn;
}

Deno.test("fixedArity() passes every argument and the trailing value for each arity", () => {
  for (const n of [0, 1, 5, MAX_FIXED_ARGS, MAX_FIXED_ARGS + 3]) {
    const args = Array.from({ length: n }, (_, i) => i * 10);
    const out = recorder(n)(...args, "cfg");
    assert.deepEqual(out, { args, last: "cfg", given: n + 1 }, `arity ${n}`);
  }
});

Deno.test("fixedArity() writes nothing and reports the count when too few or too many values are given", () => {
  for (const args of [[1, 2], [1, 2, 3], [1, 2, 3, 4, 5]]) {
    const out = recorder(3)(...args);
    assert.equal(out.given, args.length);
    assert.deepEqual(out.args, [undefined, undefined, undefined]);
    assert.equal(out.last, undefined);
  }
});
