/**
 * One vocabulary (issue 28, item 7): wherever NumPy takes an axis it may be given by position (a
 * number, or a list where NumPy takes a tuple) or in the options, with the other options after a
 * positional axis; wherever NumPy takes a dtype, by position or as `{ dtype }`; a method is the
 * function with the array first. Every form is checked against the host reference, and a wrong axis
 * in any form is a RangeError naming the axis and the valid range.
 */

import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { fromValues, type Ref } from "./_reference.ts";
import type { Value } from "./_reference_dtype.ts";
import * as R from "./_reference_reduce.ts";
import * as RS from "./_reference_sort.ts";
import * as RI from "./_reference_index.ts";
import * as RL from "./_reference_linalg.ts";
import { valuesOf } from "./_cases.ts";
import { randomInts } from "./_host.ts";

// deno-lint-ignore no-explicit-any
type Loose = (...args: any[]) => any;
/** Whether two types are the same (not merely assignable). */
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false;

/** The host reference of a device array: its dtype, shape and values. */
function ref(a: ga.GPUArray): Ref {
  return fromValues(a.dtype, a.shape, valuesOf(a.dtype, a.get() as ArrayLike<number | bigint>));
}

/** Whether `got` is `want` within `rel` (exact for bigints and for equal values, NaN equal to NaN). */
function near(got: Value | boolean, want: Value | boolean, rel: number): boolean {
  if (typeof got === "bigint" || typeof want === "bigint") return BigInt(got) === BigInt(want);
  const [g, w] = [Number(got), Number(want)];
  if (Number.isNaN(w)) return Number.isNaN(g);
  return g === w || Math.abs(g - w) <= rel * Math.max(1, Math.abs(w));
}

/** Checks a device result (an array, or a host value) against the host reference's. */
function check(got: unknown, want: Ref | R.Host, what: string, rel = 1e-5): void {
  if (!(got instanceof ga.GPUArray)) {
    assert.ok(!(typeof want === "object"), `${what}: a host value where the reference has an array`);
    assert.ok(near(got as Value, want as Value, rel), `${what}: ${String(got)}, want ${String(want)}`);
    return;
  }
  assert.ok(typeof want === "object", `${what}: an array where the reference has a host value`);
  assert.equal(got.dtype, want.dtype, `${what}: dtype`);
  assert.deepEqual(got.shape, want.shape, `${what}: shape`);
  const g = valuesOf(got.dtype, got.get() as ArrayLike<number | bigint>), w = want.values();
  g.forEach((v, i) => assert.ok(near(v, w[i]!, rel), `${what}: [${i}] = ${v}, want ${w[i]}`));
  got.free();
}

/** A [3, 4] float32 array of small integers (sums exact), and its transposed view. */
function data(): ga.GPUArray<"float32"> {
  return ga.toGpu(Float32Array.from(randomInts(12, 28, -4, 9)), [3, 4]);
}

const REDUCTIONS = [
  "sum",
  "prod",
  "mean",
  "min",
  "max",
  "ptp",
  "argmin",
  "argmax",
  "any",
  "all",
  "var",
  "std",
  "countNonzero",
  "nansum",
  "nanmean",
  "nanmin",
  "nanmax",
  "logsumexp",
] as const;

eachBackend(
  "every reduction takes the axis by position, as a list, in the options, or with options after it, as function and method",
  () => {
    using x = data();
    const host = ref(x);
    const refs = R as unknown as Record<string, (a: Ref, o?: R.ReduceOptions) => Ref | R.Host>;
    const fns = ga as unknown as Record<string, Loose>;
    for (const op of REDUCTIONS) {
      const f = fns[op]!, want = refs[op]!, m = (...args: unknown[]) => (x[op] as Loose)(...args);
      const single = op === "argmin" || op === "argmax";
      check(f(x, 0), want(host, { axis: 0 }), `ga.${op}(x, 0)`);
      check(
        f(x, -1, { keepdims: true }),
        want(host, { axis: -1, keepdims: true }),
        `ga.${op}(x, -1, { keepdims })`,
      );
      check(f(x, { axis: 1 }), want(host, { axis: 1 }), `ga.${op}(x, { axis: 1 })`);
      check(m(1), want(host, { axis: 1 }), `x.${op}(1)`);
      check(m(0, { keepdims: true }), want(host, { axis: 0, keepdims: true }), `x.${op}(0, { keepdims })`);
      check(m({ axis: 0 }), want(host, { axis: 0 }), `x.${op}({ axis: 0 })`);
      check(m(), want(host), `x.${op}()`);
      if (!single) {
        check(f(x, [0, 1]), want(host, { axis: [0, 1] }), `ga.${op}(x, [0, 1])`);
        check(m([1, 0], { keepdims: true }), want(host, { axis: [1, 0], keepdims: true }), `x.${op}([1, 0])`);
      }
    }
    check(ga.var(x, 1, { ddof: 1 }), R.var(host, { axis: 1, ddof: 1 }), "ga.var(x, 1, { ddof: 1 })");
    check(
      x.std(0, { ddof: 2, keepdims: true }),
      R.std(host, { axis: 0, ddof: 2, keepdims: true }),
      "x.std(0, ...)",
    );
    check(
      ga.std(x, { axis: 0, ddof: 1 }),
      R.std(host, { axis: 0, ddof: 1 }),
      "ga.std(x, { axis: 0, ddof: 1 })",
    );
  },
);

eachBackend("sum(0) along axis 0 of a transposed view matches the host reference", () => {
  using x = data();
  using t = x.T;
  const host = ref(t);
  check(t.sum(0), R.sum(host, { axis: 0 }), "x.T.sum(0)");
  check(ga.mean(t, 1), R.mean(host, { axis: 1 }), "ga.mean(x.T, 1)");
  check(t.argmax(1), R.argmax(host, { axis: 1 }), "x.T.argmax(1)");
});

eachBackend("a positional axis gives an array and no axis a host value, as the types say", () => {
  using x = data();
  const whole = x.sum(), along = x.sum(0), kept = ga.max(x, [0, 1], { keepdims: true }), index = x.argmax(1);
  const host = ga.mean(x, { axis: 1 }), lse = x.logsumexp(-1, { keepdims: true });
  const types: [
    Same<typeof whole, number>,
    Same<typeof along, ga.GPUArray<"float32">>,
    Same<typeof kept, ga.GPUArray<"float32">>,
    Same<typeof index, ga.GPUArray<"int64">>,
    Same<typeof host, ga.GPUArray<"float32">>,
    Same<typeof lse, ga.GPUArray<"float32">>,
  ] = [true, true, true, true, true, true];
  assert.equal(types.length, 6);
  host.free();
  lse.free();
  assert.equal(typeof whole, "number");
  assert.ok(along instanceof ga.GPUArray && kept instanceof ga.GPUArray && index instanceof ga.GPUArray);
  assert.deepEqual(kept.shape, [1, 1]);
  for (const a of [along, kept, index]) a.free();
});

eachBackend("cumsum, cumprod and diff take NumPy's positions (diff(a, n, axis)) or options", () => {
  using x = data();
  const host = ref(x);
  check(ga.cumsum(x, 1), R.cumsum(host, { axis: 1 }), "ga.cumsum(x, 1)");
  check(x.cumsum(1), R.cumsum(host, { axis: 1 }), "x.cumsum(1)");
  check(x.cumsum({ axis: 0 }), R.cumsum(host, { axis: 0 }), "x.cumsum({ axis: 0 })");
  check(x.cumsum(), R.cumsum(host), "x.cumsum()");
  using f = ga.cumsum(x, 0, { dtype: "float64" });
  assert.equal(f.dtype, "float64", "options follow a positional axis");
  check(ga.cumprod(x, 0), R.cumprod(host, { axis: 0 }), "ga.cumprod(x, 0)");
  check(x.cumprod(-1), R.cumprod(host, { axis: -1 }), "x.cumprod(-1)");
  check(ga.diff(x, { n: 2, axis: 0 }), R.diff(host, { n: 2, axis: 0 }), "ga.diff(x, { n: 2, axis: 0 })");
  check(ga.diff(x, 2), R.diff(host, { n: 2 }), "ga.diff(x, 2): NumPy's n");
  check(ga.diff(x, 1, 0), R.diff(host, { n: 1, axis: 0 }), "ga.diff(x, 1, 0)");
  check(x.diff(2, 0), R.diff(host, { n: 2, axis: 0 }), "x.diff(2, 0)");
});

eachBackend("sort, argsort, topk, softmax and logSoftmax take the axis by position or in the options", () => {
  using x = data();
  const host = ref(x);
  check(ga.sort(x, 0), RS.sort(host, { axis: 0 }), "ga.sort(x, 0)");
  check(ga.sort(x, { axis: 0 }), RS.sort(host, { axis: 0 }), "ga.sort(x, { axis: 0 })");
  check(ga.sort(x, null), RS.sort(host, { axis: null }), "ga.sort(x, null)");
  check(ga.argsort(x, 0), RS.argsort(host, { axis: 0 }), "ga.argsort(x, 0)");
  check(x.argsort(0), RS.argsort(host, { axis: 0 }), "x.argsort(0)");
  check(x.argsort(), RS.argsort(host), "x.argsort()");
  const top = ga.topk(x, 2, 0), want = RS.topk(host, 2, { axis: 0 });
  check(top.values, want.values, "ga.topk(x, 2, 0).values");
  check(top.indices, want.indices, "ga.topk(x, 2, 0).indices");
  const low = x.topk(1, 1, false), lowest = RS.topk(host, 1, { axis: 1, largest: false });
  check(low.values, lowest.values, "x.topk(1, 1, false).values");
  low.indices.free();
  const opt = ga.topk(x, 2, { axis: 0 });
  check(opt.values, want.values, "ga.topk(x, 2, { axis: 0 })");
  opt.indices.free();
  check(ga.softmax(x, 0), R.softmax(host, { axis: 0 }), "ga.softmax(x, 0)");
  check(x.softmax(0), R.softmax(host, { axis: 0 }), "x.softmax(0)");
  check(x.logSoftmax({ axis: 0 }), R.logSoftmax(host, { axis: 0 }), "x.logSoftmax({ axis: 0 })");
  check(ga.logSoftmax(x, 1), R.logSoftmax(host, { axis: 1 }), "ga.logSoftmax(x, 1)");
  using y = x.copy();
  assert.equal(y.sort(0), undefined, "a.sort() is NumPy's in-place sort: it returns nothing");
  check(y.copy(), RS.sort(host, { axis: 0 }), "a.sort(0) sorted in place along axis 0");
  y.sort({ axis: 1 });
  check(y.copy(), RS.sort(RS.sort(host, { axis: 0 }), { axis: 1 }), "a.sort({ axis: 1 })");
});

eachBackend(
  "flip, squeeze, expandDims, diagonal and trace take axes by position, as lists, or in options",
  () => {
    using x = data();
    const host = ref(x);
    check(ga.flip(x, { axis: 0 }), host.flip(0), "ga.flip(x, { axis: 0 })");
    check(ga.flip(x, 0), host.flip(0), "ga.flip(x, 0)");
    check(x.flip(1), host.flip(1), "x.flip(1)");
    check(x.flip([0, 1]), host.flip([0, 1]), "x.flip([0, 1])");
    check(x.flip(), host.flip(), "x.flip()");
    using y = ga.expandDims(x, { axis: 0 });
    assert.deepEqual(y.shape, [1, 3, 4]);
    check(ga.squeeze(y, { axis: 0 }), host, "ga.squeeze(y, { axis: 0 })");
    check(y.squeeze(0), host, "y.squeeze(0)");
    check(x.expandDims([0, 3]), host.expandDims([0, 3]), "x.expandDims([0, 3])");
    check(ga.expandDims(x, -1), host.expandDims(-1), "ga.expandDims(x, -1)");
    check(ga.diagonal(x, 1), host.diagonal({ offset: 1 }), "ga.diagonal(x, 1)");
    check(x.diagonal(-1, 1, 0), host.diagonal({ offset: -1, axis1: 1, axis2: 0 }), "x.diagonal(-1, 1, 0)");
    check(
      ga.diagonal(x, 1, { axis1: 1, axis2: 0 }),
      host.diagonal({ offset: 1, axis1: 1, axis2: 0 }),
      "mixed",
    );
    check(ga.trace(x, 1), RL.trace(host, { offset: 1 }).item() as number, "ga.trace(x, 1)");
    check(
      x.trace({ offset: -1 }),
      RL.trace(host, { offset: -1 }).item() as number,
      "x.trace({ offset: -1 })",
    );
    using cube = ga.toGpu(Float32Array.from(randomInts(24, 5, -3, 3)), [2, 3, 4]);
    check(ga.trace(cube, 0, 1, 2), RL.trace(ref(cube), { axis1: 1, axis2: 2 }), "ga.trace(cube, 0, 1, 2)");
  },
);

eachBackend(
  "concatenate, stack, split, take, repeat and compress take the axis by position or in options",
  () => {
    using x = data();
    using z = ga.toGpu(Float32Array.from(randomInts(6, 9, 0, 5)), [3, 2]);
    const [hx, hz] = [ref(x), ref(z)];
    check(
      ga.concatenate([x, z], { axis: 1 }),
      RI.concatenate([hx, hz], 1),
      "ga.concatenate([x, z], { axis: 1 })",
    );
    check(ga.concatenate([x, z], 1), RI.concatenate([hx, hz], 1), "ga.concatenate([x, z], 1)");
    check(ga.concatenate([x, z], { axis: null }), RI.concatenate([hx, hz], null), "{ axis: null }");
    check(ga.stack([x, x], { axis: 1 }), RI.stack([hx, hx], 1), "ga.stack([x, x], { axis: 1 })");
    check(ga.stack([x, x], -1), RI.stack([hx, hx], -1), "ga.stack([x, x], -1)");
    const parts = ga.split(x, 2, { axis: 1 }), want = RI.split(hx, 2, 1);
    assert.equal(parts.length, 2);
    parts.forEach((p, i) => check(p, want[i]!, `ga.split(x, 2, { axis: 1 })[${i}]`));
    ga.arraySplit(x, [1], { axis: 0 }).forEach((p, i) =>
      check(p, RI.arraySplit(hx, [1], 0)[i]!, `ga.arraySplit(x, [1], { axis: 0 })[${i}]`)
    );
    using idx = ga.asarray([2, 0, 2], "int32");
    const hidx = ref(idx);
    check(ga.take(x, idx, { axis: 0 }), RI.take(hx, hidx, 0), "ga.take(x, idx, { axis: 0 })");
    check(x.take(idx, 1), RI.take(hx, hidx, 1), "x.take(idx, 1)");
    check(x.take(idx), RI.take(hx, hidx), "x.take(idx): the flattened array");
    check(ga.repeat(x, 2, { axis: 0 }), RI.repeat(hx, 2, 0), "ga.repeat(x, 2, { axis: 0 })");
    check(x.repeat(2, 0), RI.repeat(hx, 2, 0), "x.repeat(2, 0)");
    check(x.repeat([1, 0, 2, 1], { axis: 1 }), RI.repeat(hx, [1, 0, 2, 1], 1), "x.repeat(list, { axis: 1 })");
    using cond = ga.asarray([true, false, true]);
    const hcond = ref(cond);
    check(ga.compress(cond, x, { axis: 0 }), RI.compress(hcond, hx, 0), "ga.compress(c, x, { axis: 0 })");
    check(x.compress(cond, 0), RI.compress(hcond, hx, 0), "x.compress(c, 0)");
    check(
      x.compress([false, true, true, false], 1),
      RI.compress(fromValues("bool", [4], [0, 1, 1, 0]), hx, 1),
      "1",
    );
  },
);

eachBackend("norm takes axis and keepdims in the options or after ord, and matmul is a method", () => {
  using x = data();
  const host = ref(x);
  const rows = (keep: boolean) => {
    const v = host.values().map(Number), out: number[] = [];
    for (let i = 0; i < 3; i++) out.push(Math.sqrt(v.slice(4 * i, 4 * i + 4).reduce((s, e) => s + e * e, 0)));
    return fromValues("float32", keep ? [3, 1] : [3], out);
  };
  check(ga.norm(x, { axis: 1 }), rows(false), "ga.norm(x, { axis: 1 })");
  check(x.norm({ axis: -1, keepdims: true }), rows(true), "x.norm({ axis: -1, keepdims: true })");
  check(ga.norm(x, null, 1), rows(false), "ga.norm(x, null, 1)");
  check(x.norm(null, 1, true), rows(true), "x.norm(null, 1, true)");
  check(ga.norm(x, undefined, 1, { keepdims: true }), rows(true), "ga.norm(x, undefined, 1, { keepdims })");
  const all = Math.sqrt(host.values().map(Number).reduce((s, e) => s + e * e, 0));
  check(x.norm(), all, "x.norm()");
  check(ga.norm(x, { axis: [0, 1] }), fromValues("float32", [], [all]), "ga.norm(x, { axis: [0, 1] })");
  using y = ga.toGpu(Float32Array.from(randomInts(8, 3, -3, 3)), [4, 2]);
  check(x.matmul(y), RL.matmul(host, ref(y)), "x.matmul(y)");
  assert.throws(() => (x.norm as Loose)(2), { name: "TypeError", message: /^Cannot norm with ord 2/ });
});

eachBackend(
  "creation functions take the dtype by position or as { dtype }, arange as NumPy's arange(5, dtype)",
  () => {
    const same = (got: ga.GPUArray, want: Ref, what: string) => check(got, want, what, 0);
    same(ga.asarray([[1, 2], [3, 4]], { dtype: "int32" }), RI.asarray([[1, 2], [3, 4]], "int32"), "asarray");
    same(ga.asarray([1, 2], "int16"), RI.asarray([1, 2], "int16"), "asarray(list, dtype)");
    same(ga.zeros([2, 3], { dtype: "int32" }), RI.zeros([2, 3], "int32"), "zeros({ dtype })");
    same(ga.zeros(4, "uint8"), RI.zeros(4, "uint8"), "zeros(shape, dtype)");
    same(ga.ones([2], { dtype: "float64" }), RI.ones([2], "float64"), "ones({ dtype })");
    same(ga.full([2, 2], 7, { dtype: "int8" }), RI.full([2, 2], 7, "int8"), "full(shape, v, { dtype })");
    same(ga.full([3], 2, "int64"), RI.full([3], 2n, "int64"), "full(shape, v, dtype)");
    using e = ga.empty([2, 3], { dtype: "int32" });
    assert.deepEqual([e.dtype, e.shape], ["int32", [2, 3]], "empty(shape, { dtype })");
    using like = ga.ones([2, 2]);
    same(ga.zerosLike(like, { dtype: "int32" }), RI.zeros([2, 2], "int32"), "zerosLike({ dtype })");
    same(ga.onesLike(like, "int16"), RI.ones([2, 2], "int16"), "onesLike(dtype)");
    same(ga.fullLike(like, 3, { dtype: "uint16" }), RI.full([2, 2], 3, "uint16"), "fullLike({ dtype })");
    using el = ga.emptyLike(like, { dtype: "bool" });
    assert.equal(el.dtype, "bool", "emptyLike({ dtype })");
    same(ga.eye(3, { dtype: "int32" }), RI.eye(3, 3, 0, "int32"), "eye(n, { dtype })");
    same(ga.eye(3, "int32"), RI.eye(3, 3, 0, "int32"), "eye(n, dtype)");
    same(ga.eye(3, 4, { k: 1 }), RI.eye(3, 4, 1), "eye(n, m, { k })");
    same(ga.eye(3, 4, 1, "int8"), RI.eye(3, 4, 1, "int8"), "eye(n, m, k, dtype)");
    same(ga.identity(2, { dtype: "float64" }), RI.identity(2, "float64"), "identity({ dtype })");
    same(ga.tri(3, null, -1, { dtype: "int32" }), RI.tri(3, 3, -1, "int32"), "tri(n, null, k, { dtype })");
    same(ga.arange(5, "int32"), RI.arange(5, undefined, 1, "int32"), "arange(5, 'int32')");
    same(ga.arange(5, { dtype: "int32" }), RI.arange(5, undefined, 1, "int32"), "arange(5, { dtype })");
    same(ga.arange(2, 6, "int64"), RI.arange(2, 6, 1, "int64"), "arange(start, stop, dtype)");
    same(
      ga.arange(1, 10, { step: 3, dtype: "int16" }),
      RI.arange(1, 10, 3, "int16"),
      "arange(1, 10, { step })",
    );
    same(
      ga.arange(1, 2, 0.25, "float64"),
      RI.arange(1, 2, 0.25, "float64"),
      "arange(start, stop, step, dtype)",
    );
    same(ga.arange(6, { step: 2 }), RI.arange(0, 6, 2, "int32"), "arange(stop, { step })");
    same(
      ga.linspace(0, 1, 5, { dtype: "float64" }),
      RI.linspace(0, 1, 5, { dtype: "float64" }),
      "linspace({ dtype })",
    );
    same(ga.linspace(0, 8, 5, "int32"), RI.linspace(0, 8, 5, { dtype: "int32" }), "linspace(..., dtype)");
    same(ga.linspace(0, 1, { num: 3 }), RI.linspace(0, 1, 3), "linspace(0, 1, { num })");
  },
);

eachBackend(
  "the dtype given by position or as { dtype } is the result's type, float32 when none is given (arange of integers: int32)",
  () => {
    const z = ga.zeros([2], { dtype: "int32" }), r = ga.arange(5, "int64"), e = ga.eye(3, 4, { k: 1 });
    const l = ga.linspace(0, 1, 4, { endpoint: false }), a = ga.asarray([1, 2], { dtype: "uint8" });
    const f = ga.full([2], 1, "int16"), d = ga.linspace(0, 1, 3, "float64"), s = ga.arange(1, 9, { step: 2 });
    const types: [
      Same<typeof z, ga.GPUArray<"int32">>,
      Same<typeof r, ga.GPUArray<"int64">>,
      Same<typeof e, ga.GPUArray<"float32">>,
      Same<typeof l, ga.GPUArray<"float32">>,
      Same<typeof a, ga.GPUArray<"uint8">>,
      Same<typeof f, ga.GPUArray<"int16">>,
      Same<typeof d, ga.GPUArray<"float64">>,
      Same<typeof s, ga.GPUArray<ga.ArangeDType>>,
    ] = [true, true, true, true, true, true, true, true];
    assert.equal(types.length, 8);
    const all = [z, r, e, l, a, f, d, s];
    assert.deepEqual(all.map((x) => x.dtype), [
      "int32",
      "int64",
      "float32",
      "float32",
      "uint8",
      "int16",
      "float64",
      "int32",
    ]);
    for (const x of all) x.free();
  },
);

/** Calls that name a wrong axis, in each form, and the axis and rank the message must name. */
function wrongAxes(x: ga.GPUArray, v: ga.GPUArray): [string, () => unknown, number, number][] {
  return [
    ["x.sum(2)", () => x.sum(2), 2, 2],
    ["ga.sum(x, { axis: -3 })", () => ga.sum(x, { axis: -3 }), -3, 2],
    ["x.mean([0, 2])", () => x.mean([0, 2]), 2, 2],
    ["x.argmax(2)", () => x.argmax(2), 2, 2],
    ["ga.var(x, 5, { ddof: 1 })", () => ga.var(x, 5, { ddof: 1 }), 5, 2],
    ["ga.logsumexp(x, 2)", () => ga.logsumexp(x, 2), 2, 2],
    ["ga.cumsum(x, 2)", () => ga.cumsum(x, 2), 2, 2],
    ["x.cumprod({ axis: -3 })", () => x.cumprod({ axis: -3 }), -3, 2],
    ["ga.diff(x, 1, 2)", () => ga.diff(x, 1, 2), 2, 2],
    ["ga.sort(x, 2)", () => ga.sort(x, 2), 2, 2],
    ["x.argsort({ axis: 3 })", () => x.argsort({ axis: 3 }), 3, 2],
    ["x.sort(2)", () => x.copy().sort(2), 2, 2],
    ["ga.topk(x, 1, 2)", () => ga.topk(x, 1, 2), 2, 2],
    ["ga.softmax(x, 2)", () => ga.softmax(x, 2), 2, 2],
    ["ga.flip(x, { axis: 2 })", () => ga.flip(x, { axis: 2 }), 2, 2],
    ["x.flip(-3)", () => x.flip(-3), -3, 2],
    ["ga.squeeze(x, { axis: 2 })", () => ga.squeeze(x, { axis: 2 }), 2, 2],
    ["ga.expandDims(x, { axis: 3 })", () => ga.expandDims(x, { axis: 3 }), 3, 3],
    ["ga.concatenate([x, x], { axis: 2 })", () => ga.concatenate([x, x], { axis: 2 }), 2, 2],
    ["ga.stack([x, x], 3)", () => ga.stack([x, x], 3), 3, 3],
    ["ga.split(x, 1, { axis: 2 })", () => ga.split(x, 1, { axis: 2 }), 2, 2],
    ["ga.take(x, [0], { axis: 2 })", () => ga.take(x, [0], { axis: 2 }), 2, 2],
    ["x.repeat(2, 2)", () => x.repeat(2, 2), 2, 2],
    ["x.compress([true], { axis: 2 })", () => x.compress([true], { axis: 2 }), 2, 2],
    ["ga.trace(x, 0, 0, 2)", () => ga.trace(x, 0, 0, 2), 2, 2],
    ["x.diagonal({ axis1: -3 })", () => x.diagonal({ axis1: -3 }), -3, 2],
    ["ga.norm(x, { axis: 2 })", () => ga.norm(x, { axis: 2 }), 2, 2],
    ["v.sum(1)", () => v.sum(1), 1, 1],
  ];
}

eachBackend("a wrong axis in any form is a RangeError naming the axis and the valid range", () => {
  using x = data();
  using v = ga.arange(3);
  for (const [call, run, axis, ndim] of wrongAxes(x, v)) {
    assert.throws(run, {
      name: "RangeError",
      message: new RegExp(
        `axis ${axis} is out of range for an array of ${ndim} dimensions? \\(use -${ndim} to ${ndim - 1}\\)`,
      ),
    }, call);
  }
});

eachBackend(
  "an axis given twice, a string where the axis goes, or anything after the options is a TypeError",
  () => {
    using x = data();
    assert.throws(() => (x.sum as Loose)(0, { axis: 1 }), {
      name: "TypeError",
      message: "Cannot sum with axis 0 and { axis: 1 }: give axis once, by position or in the options",
    });
    assert.throws(() => (ga.cumsum as Loose)(x, "1"), {
      name: "TypeError",
      message:
        'Cannot cumsum with "1" where axis goes: give the axis (a number), or options in an object such as { axis: 0 }',
    });
    assert.throws(() => (ga.cumsum as Loose)(x, [0, 1]), {
      name: "TypeError",
      message: /^Cannot cumsum with \[0, 1\]/,
    });
    assert.throws(() => (x.argmax as Loose)({ axis: [0, 1] }), {
      name: "TypeError",
      message: /^Cannot argmax along axes \[0,1\]: give one axis/,
    });
    assert.throws(() => (ga.sum as Loose)(x, { keepdims: true }, 0), {
      name: "TypeError",
      message:
        /^Cannot sum with 0 after the options object \{ keepdims \}: give it before the object, or in it/,
    });
    assert.throws(() => (ga.zeros as Loose)([2], { dtype: "int32", shape: [3] }), {
      name: "TypeError",
      message: 'Cannot zeros with option "shape": the only option is dtype',
    });
    assert.throws(() => (ga.stack as Loose)([x, x], null), {
      name: "TypeError",
      message: /^Cannot stack with null/,
    });
  },
);
