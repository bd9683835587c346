/**
 * NumPy habits that JavaScript would otherwise ignore: a number, string or boolean where an options
 * object belongs (`cumsum(a, 1)`, `diff(a, 2)`, `linspace(0, 1, 5, false)`) and an order other than C
 * (`flatten("F")`) are TypeErrors that name the call and say what to write, not runs with the
 * defaults that give another result. So are NumPy calls whose form differs here: `where(c)` alone,
 * `clip(a, min)` without a max, and `norm(a, ord)`.
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
      ["a.sum(0)", () => (a.sum as Loose)(0), "sum with options 0", "{ axis: 0 }"],
      ["ga.argmax(a, 1)", () => (ga.argmax as Loose)(a, 1), "argmax with options 1", "{ axis: 0 }"],
      ["a.cumsum(1)", () => (a.cumsum as Loose)(1), "cumsum with options 1", "{ axis: 0 }"],
      ["ga.cumprod(a, 0)", () => (ga.cumprod as Loose)(a, 0), "cumprod with options 0", "{ axis: 0 }"],
      ["ga.diff(a, 2)", () => (ga.diff as Loose)(a, 2), "diff with options 2", "{ n: 2, axis: 0 }"],
      ["a.sort(0)", () => (a.sort as Loose)(0), "sort with options 0", "{ axis: 0 }"],
      ["ga.sort(a, 0)", () => (ga.sort as Loose)(a, 0), "sort with options 0", "{ axis: 0 }"],
      ["ga.argsort(a, 0)", () => (ga.argsort as Loose)(a, 0), "argsort with options 0", "{ axis: 0 }"],
      [
        "ga.topk(a, 2, 0)",
        () => (ga.topk as Loose)(a, 2, 0),
        "topk with options 0",
        "{ axis: 0, largest: false }",
      ],
      ["ga.softmax(a, 0)", () => (ga.softmax as Loose)(a, 0), "softmax with options 0", "{ axis: 0 }"],
      ["ga.trace(a, 1)", () => (ga.trace as Loose)(a, 1), "trace with options 1", "{ offset: 1 }"],
      [
        "ga.diagonal(a, 1)",
        () => (ga.diagonal as Loose)(a, 1),
        "take a diagonal with options 1",
        "{ offset: 1 }",
      ],
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
      [
        "ga.linspace(0, 1, 5, false)",
        () => (ga.linspace as Loose)(0, 1, 5, false),
        "call linspace() with options false",
        "{ endpoint: false }",
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
