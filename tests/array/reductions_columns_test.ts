/**
 * The column walk of reductions (the reduced axes outside the kept ones in memory), where a thread owns
 * an output and neighbouring threads read neighbouring outputs: widths that are and are not multiples
 * of 4, views at odd offsets and strides, `keepdims`, `out=` views, several axes, long columns split
 * over blocks, and a fused prologue. Every result is checked against the host.
 */
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { groups, near, randomF32, REFERENCE } from "./_reduce_reference.ts";

type Options = { axis: number | number[]; keepdims?: boolean; out?: ga.GPUArray };

const OPS = ["sum", "prod", "mean", "min", "max", "any", "all", "nansum", "argmax", "var"];

/** The host reference of `op` over `a`'s elements along `axes`, one value per output in C order. */
function reference(op: string, a: ga.GPUArray, axes: number[]): number[] {
  return groups(Array.from(a.get() as ArrayLike<number | bigint>, Number), a.shape, axes).map((xs) =>
    REFERENCE[op]!(xs)
  );
}

/** Runs `op` on `a` (into `options.out` when given) and compares the result with the host reference. */
function check(op: string, a: ga.GPUArray, options: Options, rel = 1e-4): void {
  const f = (ga as unknown as Record<string, (a: ga.GPUArray, o: Options) => ga.GPUArray>)[op]!;
  const axes = [options.axis].flat().map((x) => (x < 0 ? x + a.ndim : x));
  const want = reference(op, a, axes);
  const result = f(a, options);
  const shape = options.keepdims
    ? a.shape.map((d, i) => (axes.includes(i) ? 1 : d))
    : a.shape.filter((_, i) => !axes.includes(i));
  assert.deepEqual(result.shape, shape, `${op} along ${axes} of ${a.shape}: shape`);
  if (options.out !== undefined) assert.equal(result, options.out, `${op}: the result is out`);
  const got = Array.from(result.get() as ArrayLike<number | bigint>, Number);
  got.forEach((g, i) =>
    assert.ok(near(g, want[i]!, rel), `${op} along ${axes} of ${a.shape}: [${i}] = ${g}, want ${want[i]}`)
  );
  if (options.out === undefined) result.free();
}

eachBackend(
  "every reduction along axis 0 matches the host for widths that are and are not multiples of 4",
  () => {
    for (const [rows, cols] of [[37, 64], [37, 66], [5, 4], [300, 12]]) {
      using a = ga.toGpu(randomF32(rows * cols, rows + cols, -2, 2), [rows, cols]);
      for (const op of OPS) check(op, a, { axis: 0 }, op === "prod" ? 1e-3 : 1e-4);
      check("sum", a, { axis: 0, keepdims: true });
      check("argmin", a, { axis: -2, keepdims: true });
    }
  },
);

eachBackend(
  "column sums of views at odd offsets and row strides match the host",
  () => {
    using base = ga.toGpu(randomF32(40 * 70, 1), [40, 70]);
    const views = [
      base.slice([], [1, 65]), // 64 columns from an odd offset
      base.slice([], [4, 68]), // 64 columns from offset 4, rows 70 apart
      base.slice([1, 40], [2, 66]), // both
      base.slice([null, null, -1], [0, 64]), // rows in reverse
      base.slice([], [null, null, -1]).slice([], [2, 66]), // columns in reverse: their stride is -1
    ];
    for (const v of views) {
      for (const op of ["sum", "max", "argmax", "mean"]) check(op, v, { axis: 0 });
      v.free();
    }
    using aligned = ga.toGpu(randomF32(40 * 72, 2), [40, 72]);
    const inner = aligned.slice([3, 40], [8, 72]); // offset and row stride multiples of 4
    for (const op of ["sum", "min", "argmax", "var"]) check(op, inner, { axis: 0, keepdims: true });
    inner.free();
  },
);

eachBackend(
  "column reductions write into out= views, strided or at an offset, and keep other elements",
  () => {
    using a = ga.toGpu(randomF32(50 * 16, 3), [50, 16]);
    using wide = ga.full([16, 3], -7);
    const column = wide.slice([], 1); // stride 3
    check("sum", a, { axis: 0, out: column });
    const rest = Array.from(wide.get()).filter((_, i) => i % 3 !== 1);
    assert.ok(rest.every((v) => v === -7), "the other columns of out are untouched");
    column.free();
    using flat = ga.full([21], -7);
    const shifted = flat.slice([1, 17]); // offset 1
    check("max", a, { axis: 0, out: shifted });
    check("mean", a, { axis: 0, out: shifted });
    const outside = Array.from(flat.get()).filter((_, i) => i < 1 || i >= 17);
    assert.deepEqual(outside, [-7, -7, -7, -7, -7]);
    shifted.free();
    using kept = ga.zeros([1, 16]);
    check("sum", a, { axis: 0, keepdims: true, out: kept });
  },
);

eachBackend(
  "column reductions over several kept and reduced axes, and long columns split over blocks",
  () => {
    using cube = ga.toGpu(randomF32(6 * 5 * 8, 4), [6, 5, 8]);
    check("sum", cube, { axis: 1 }); // kept [6, 8]: two kept axes
    check("argmax", cube, { axis: 0 });
    check("var", cube, { axis: [0, 1] });
    const turned = cube.transpose(1, 0, 2); // reduced axes that merge once sorted by stride
    check("sum", turned, { axis: [0, 1] });
    check("max", turned, { axis: [0, 1], keepdims: true });
    turned.free();
    const stepped = cube.slice([null, null, 2]); // [3, 5, 8], strides [80, 8, 1]: reduced axes that do not merge
    check("sum", stepped, { axis: [0, 1] });
    check("min", stepped, { axis: [0, 1], keepdims: true });
    stepped.free();
    for (const [rows, cols] of [[4096, 8], [16_384, 4], [3000, 132]]) {
      using long = ga.toGpu(randomF32(rows * cols, rows, -1, 1), [rows, cols]);
      check("sum", long, { axis: 0 }, 1e-3);
      check("argmin", long, { axis: 0 });
      check("var", long, { axis: 0 }, 1e-3);
    }
  },
);

eachBackend("integer, bool and float64 columns reduce in NumPy's dtypes", () => {
  const ints = Int32Array.from({ length: 9 * 12 }, (_, i) => ((i * 7919) % 7) - 3);
  using a = ga.toGpu(ints, [9, 12]);
  for (const op of ["sum", "prod", "min", "max", "argmax", "any", "all"]) check(op, a, { axis: 0 }, 0);
  using s = a.sum({ axis: 0 });
  assert.equal(s.dtype, "int64");
  using flags = a.gt(0);
  check("any", flags, { axis: 0 }, 0);
  check("all", flags, { axis: 0 }, 0);
  check("sum", flags, { axis: 0 }, 0);
  if (a.backend.supports("float64")) {
    using d = ga.toGpu(Float64Array.from(randomF32(33 * 8, 5)), [33, 8]);
    for (const op of ["sum", "mean", "var", "argmin"]) check(op, d, { axis: 0 }, 1e-12);
  }
});

eachBackend("a fused prologue over a row, a column and a full operand feeds the column walk", () => {
  const [rows, cols] = [45, 24];
  const x = randomF32(rows * cols, 6), y = randomF32(cols, 7), z = randomF32(rows, 8);
  using gx = ga.toGpu(x, [rows, cols]);
  using gy = ga.toGpu(y, [cols]);
  using gz = ga.toGpu(z, [rows, 1]);
  const f = ga.fuse((a: ga.GPUArray, b: ga.GPUArray, c: ga.GPUArray) =>
    a.mul(b).add(c).square().sum({ axis: 0 })
  );
  using got = f(gx, gy, gz);
  const want = Array.from({ length: cols }, (_, j) => {
    let s = 0;
    for (let i = 0; i < rows; i++) s += (Math.fround(x[i * cols + j]! * y[j]!) + z[i]!) ** 2;
    return s;
  });
  Array.from(got.get() as Float32Array).forEach((g, j) =>
    assert.ok(near(g, want[j]!, 1e-4), `[${j}] = ${g}, want ${want[j]}`)
  );
  const shifted = gx.slice([], [1, 21]); // the same from an odd offset: one output a thread
  using part = gy.slice([1, 21]);
  using again = f(shifted, part, gz);
  Array.from(again.get() as Float32Array).forEach((g, j) => {
    let s = 0;
    for (let i = 0; i < rows; i++) s += (Math.fround(x[i * cols + j + 1]! * y[j + 1]!) + z[i]!) ** 2;
    assert.ok(near(g, s, 1e-4), `shifted [${j}] = ${g}, want ${s}`);
  });
  shifted.free();
});
