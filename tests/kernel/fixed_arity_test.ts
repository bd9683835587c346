import assert from "node:assert/strict";
import { fixedArity, MAX_FIXED_ARGS } from "../../src/kernel/fixed_arity.ts";

function recorder(n: number) {
  let kept: readonly unknown[] = [];
  const fn = fixedArity(n, n + 1, (values, given) => {
    kept = values;
    return { args: values.slice(0, n), last: values[n], given };
  });
  return { fn, kept: () => kept };
}

Deno.test("fixedArity() passes every argument and the trailing value for each arity", () => {
  for (const n of [0, 1, 5, MAX_FIXED_ARGS, MAX_FIXED_ARGS + 3]) {
    const args = Array.from({ length: n }, (_, i) => i * 10);
    const out = recorder(n).fn(...args, "cfg");
    assert.deepEqual(out, { args, last: "cfg", given: n + 1 }, `arity ${n}`);
  }
});

Deno.test("fixedArity() writes nothing and reports the count when too few or too many values are given", () => {
  for (const args of [[1, 2], [1, 2, 3], [1, 2, 3, 4, 5]]) {
    const out = recorder(3).fn(...args);
    assert.equal(out.given, args.length);
    assert.deepEqual(out.args, [undefined, undefined, undefined]);
    assert.equal(out.last, undefined);
  }
});

Deno.test("fixedArity() keeps no argument after the call, even when the launch throws", () => {
  for (const n of [2, MAX_FIXED_ARGS + 1]) {
    const { fn, kept } = recorder(n);
    fn(...Array.from({ length: n }, () => ({})), "cfg");
    assert.ok(kept().every((v) => v === undefined), `arity ${n}`);
    let seen: readonly unknown[] = [];
    const failing = fixedArity(n, n + 1, (values) => {
      seen = values;
      throw new RangeError("bad launch");
    });
    assert.throws(() => failing(...Array.from({ length: n }, () => ({})), "cfg"), RangeError);
    assert.equal(seen.length, n + 1);
    assert.ok(seen.every((v) => v === undefined), `arity ${n}, thrown`);
  }
});
