/**
 * NumPy habits that JavaScript would otherwise ignore: a number, string or boolean where an options
 * object belongs and the function takes nothing by position there (`unique(a, true)`,
 * `linspace(0, 1, 5, false)`), and an order other than C (`flatten("F")`), are TypeErrors that name
 * the call and say what to write, not runs with the defaults that give another result. So are NumPy
 * calls whose form differs here: `where(c)` alone, `clip(a, min)` without a max, and `norm(a, ord)`.
 * Where NumPy takes the argument by position (`cumsum(a, 1)`, `diff(a, 2)`, `sort(a, 0)`,
 * `trace(a, 1)`), it means what NumPy means (tests/array/vocabulary_test.ts checks every form).
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

// deno-lint-ignore no-explicit-any
type Loose = (...args: any[]) => unknown;

eachBackend(
  "a number, string or boolean in place of an options object is a TypeError showing the object to pass",
  () => {
    using a = ga.arange(12).reshape(3, 4);
    using s = ga.arange(4);
    const cases: [string, () => unknown, string, string][] = [
      [
        "ga.unique(a, true)",
        () => (ga.unique as Loose)(a, true),
        "take unique values with options true",
        "{ returnCounts: true }",
      ],
      [
        "ga.searchsorted(s, s, 'right')",
        () => (ga.searchsorted as Loose)(s, s, "right"),
        'searchsorted with options "right"',
        '{ side: "right" }',
      ],
      ["a.add(1, 5)", () => (a.add as Loose)(1, 5), "add with options 5", "{ out }"],
      ["ga.exp(a, 'x')", () => (ga.exp as Loose)(a, "x"), 'exp with options "x"', "{ out }"],
      ["ga.matmul(a, a.T, [])", () => (ga.matmul as Loose)(a, a.T, []), "matmul with options []", "{ out }"],
      ["ga.pad(s, 1, 0)", () => (ga.pad as Loose)(s, 1, 0), "pad with options 0", "{ constantValues: -1 }"],
      [
        "ga.random.normal([2], 7)",
        () => (ga.random.normal as Loose)([2], 7),
        "draw normal numbers with options 7",
        "{ seed: 1 }",
      ],
    ];
    for (const [call, run, what, example] of cases) {
      assert.throws(
        run,
        { name: "TypeError", message: `Cannot ${what}: pass an object such as ${example}` },
        call,
      );
    }
    assert.throws(() => (ga.linspace as Loose)(0, 1, 5, false), {
      name: "TypeError",
      message:
        "Cannot call linspace() with false after num: NumPy's fourth argument is endpoint; give it by name, { endpoint: false }",
    });
  },
);

eachBackend(
  "a number where NumPy takes one by position (cumsum(a, 1), diff(a, 2), sort(a, 0), trace(a, 1)) means what NumPy means",
  () => {
    using a = ga.asarray([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]]);
    const same = (call: string, positional: () => unknown, keyword: () => unknown) => {
      const [p, k] = [positional(), keyword()];
      if (p instanceof ga.GPUArray && k instanceof ga.GPUArray) {
        assert.deepEqual(p.shape, k.shape, `${call}: shape`);
        assert.deepEqual(p.tolist(), k.tolist(), call);
        p.free();
        k.free();
      } else assert.deepEqual(p, k, call);
    };
    same("a.sum(0)", () => a.sum(0), () => a.sum({ axis: 0 }));
    same("ga.argmax(a, 1)", () => ga.argmax(a, 1), () => ga.argmax(a, { axis: 1 }));
    same("a.cumsum(1)", () => a.cumsum(1), () => a.cumsum({ axis: 1 }));
    same("ga.cumprod(a, 0)", () => ga.cumprod(a, 0), () => ga.cumprod(a, { axis: 0 }));
    same("ga.diff(a, 2)", () => ga.diff(a, 2), () => ga.diff(a, { n: 2 }));
    same("ga.sort(a, 0)", () => ga.sort(a, 0), () => ga.sort(a, { axis: 0 }));
    same("ga.argsort(a, 0)", () => ga.argsort(a, 0), () => ga.argsort(a, { axis: 0 }));
    same("ga.topk(a, 2, 0)", () => ga.topk(a, 2, 0).values, () => ga.topk(a, 2, { axis: 0 }).values);
    same("ga.softmax(a, 0)", () => ga.softmax(a, 0), () => ga.softmax(a, { axis: 0 }));
    same("ga.trace(a, 1)", () => ga.trace(a, 1), () => ga.trace(a, { offset: 1 }));
    same("ga.diagonal(a, 1)", () => ga.diagonal(a, 1), () => ga.diagonal(a, { offset: 1 }));
    using sorted = a.copy();
    sorted.sort(0);
    using want = ga.sort(a, { axis: 0 });
    assert.deepEqual(sorted.tolist(), want.tolist(), "a.sort(0) sorts in place along axis 0");
    using column = ga.cumsum(a, 1);
    assert.deepEqual(
      column.tolist(),
      [[3, 4, 8, 9], [5, 14, 16, 22], [5, 8, 13, 21]],
      "cumsum(a, 1) is along axis 1",
    );
  },
);

eachBackend(
  "an option a function does not have is a TypeError listing the ones it has, with a near spelling named",
  () => {
    using a = ga.arange(12).reshape(3, 4);
    assert.throws(() => a.sum({ keepDims: true } as never), {
      name: "TypeError",
      message:
        'Cannot sum with option "keepDims": did you mean keepdims? the options are axis, keepdims, out',
    });
    assert.throws(() => ga.std(a, { axs: 0 } as never), {
      name: "TypeError",
      message: 'Cannot std with option "axs": the options are axis, keepdims, out, ddof',
    });
    assert.throws(() => a.add(1, { output: a } as never), {
      name: "TypeError",
      message: 'Cannot add with option "output": the only option is out',
    });
    assert.throws(() => ga.cumsum(a, { axis: 0, keepdims: true } as never), {
      name: "TypeError",
      message: 'Cannot cumsum with option "keepdims": the options are axis, dtype, out',
    });
    using v = ga.var(a, { axis: 1, ddof: 1 });
    assert.equal(v.shape[0], 3, "known options still work");
  },
);

eachBackend(
  'ravel, flatten and copy take order "C" and refuse another, naming the transpose that gives it',
  () => {
    using a = ga.arange(6).reshape(2, 3);
    using r = a.ravel("C");
    assert.deepEqual([...r.get()], [0, 1, 2, 3, 4, 5]);
    assert.throws(() => (a.flatten as Loose)("F"), {
      name: "TypeError",
      message:
        'Cannot flatten in order "F": cudeno works in C order (row-major) only; for column-major order, flatten the transpose: a.T.flatten()',
    });
    assert.throws(() => (ga.ravel as Loose)(a, "F"), {
      name: "TypeError",
      message:
        'Cannot ravel in order "F": cudeno works in C order (row-major) only; for column-major order, ravel the transpose: ga.ravel(a.T)',
    });
    assert.throws(() => (a.copy as Loose)("F"), { name: "TypeError", message: /^Cannot copy in order "F"/ });
    using t = a.T.flatten();
    assert.deepEqual([...t.get()], [0, 3, 1, 4, 2, 5], "the transpose flattened: column-major order");
  },
);

eachBackend(
  "where(c) alone and clip(a, min) without max are TypeErrors saying what to write; clip takes null for no bound",
  () => {
    using a = ga.arange(5);
    using c = a.gt(2);
    assert.throws(() => ga.where(c, undefined as never, undefined as never), {
      name: "TypeError",
      message:
        "Cannot where() with a condition alone: give the values where it holds and where it does not, ga.where(c, x, y); for the indices where it holds (NumPy's where(c)), use ga.nonzero(c)",
    });
    assert.throws(() => a.clip(1, undefined as never), {
      name: "TypeError",
      message: "Cannot clip without max: give both bounds, null for none (ga.clip(a, 0, null))",
    });
    using low = a.clip(1, null);
    assert.deepEqual([...low.get()], [1, 1, 2, 3, 4]);
  },
);

eachBackend("norm() with an ord is a TypeError naming the reductions that write other norms", () => {
  using a = ga.asarray([3, -4]);
  assert.equal(a.norm(), 5);
  assert.throws(() => (a.norm as (ord: number) => number).call(a, 1), {
    name: "TypeError",
    message:
      "Cannot norm with ord 1: norm() is the 2-norm of the flattened array (Frobenius for a matrix); write others with the reductions, ga.abs(a).sum() for the 1-norm, ga.abs(a).max() for the max norm",
  });
  assert.throws(() => ga.norm(a, Infinity as never), {
    name: "TypeError",
    message: /^Cannot norm with ord Infinity/,
  });
});
