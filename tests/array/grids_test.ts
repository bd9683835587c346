import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray } from "./_nd.ts";

/** NumPy's linspace computed on the host in float64. */
function hostLinspace(start: number, stop: number, num: number, endpoint = true): number[] {
  const div = endpoint ? num - 1 : num, step = (stop - start) / div;
  const out = Array.from({ length: num }, (_, i) => (div === 0 ? i * (stop - start) : i * step) + start);
  if (endpoint && num > 1) out[num - 1] = stop;
  return out;
}

/** Within `ulps` units in the last place of float32 (or float64). */
function close(
  got: ArrayLike<number>,
  want: readonly number[],
  ulp: (x: number) => number,
  what: string,
): void {
  assert.equal(got.length, want.length, what);
  want.forEach((w, i) =>
    assert.ok(Math.abs(got[i]! - w) <= ulp(w), `${what}: element ${i} is ${got[i]}, not ${w}`)
  );
}
const f32ulp = (x: number) => Math.max(Math.abs(x), 2 ** -126) * 2 ** -23;

eachBackend("linspace() gives NumPy's values, with stop exactly last", () => {
  using a = ga.linspace(0, 1, 5);
  assert.deepEqual(Array.from(a.get()), [0, 0.25, 0.5, 0.75, 1]);
  using b = ga.linspace(-1, 2, 50);
  close(b.get(), hostLinspace(-1, 2, 50).map(Math.fround), f32ulp, "linspace(-1, 2, 50)");
  assert.equal(b.get()[49], 2);
  using c = ga.linspace(10, -3, 7, { endpoint: false });
  close(c.get(), hostLinspace(10, -3, 7, false).map(Math.fround), f32ulp, "endpoint false");
  using one = ga.linspace(3, 4, 1);
  assert.deepEqual(Array.from(one.get()), [3]);
  using none = ga.linspace(3, 4, 0);
  assert.deepEqual(none.shape, [0]);
  using dflt = ga.linspace(0, 1);
  assert.equal(dflt.size, 50);
});

eachBackend("linspace() into float64 and integer dtypes: integers take the floor, as NumPy 2", () => {
  using ints = ga.linspace(-1, 2, 7, { endpoint: false, dtype: "int32" });
  assertArray(ints, [7], ([i]) => Math.floor(hostLinspace(-1, 2, 7, false)[i!]!));
  // 3 * (8 / 6) - 5 is -1 when the product rounds first, as NumPy computes it; a fused multiply-add
  // would give -1.0000000000000002, whose floor is -2.
  using rounded = ga.linspace(-5, 3, 7, { dtype: "int32" });
  assertArray(rounded, [7], ([i]) => [-5, -4, -3, -1, 0, 1, 3][i!]!);
  using probe = ga.zeros(1);
  if (!probe.backend.supports("float64")) return;
  using wide = ga.linspace(0, 1, 11, { dtype: "float64" });
  close(wide.get(), hostLinspace(0, 1, 11), (x) => Math.abs(x) * 2 ** -52, "float64");
  using flags = ga.linspace(0, 1, 3, { dtype: "bool" });
  assertArray(flags, [3], ([i]) => i! > 0);
});

eachBackend("linspace() refuses a negative count and infinite bounds", () => {
  assert.throws(() => ga.linspace(0, 1, -1), {
    name: "RangeError",
    message: /Cannot make -1 values with linspace\(\)/,
  });
  assert.throws(() => ga.linspace(0, Infinity), { name: "RangeError", message: /give finite bounds/ });
});

eachBackend("meshgrid() gives coordinate grids in xy and ij indexing, as broadcast views", () => {
  using x = ga.asarray([1, 2, 3]), y = ga.asarray([10, 20]);
  const [gx, gy] = ga.meshgrid(x, y);
  assertArray(gx!, [2, 3], ([, j]) => j! + 1);
  assertArray(gy!, [2, 3], ([i]) => 10 * (i! + 1));
  assert.equal(gx!.base, x, "a view of the input");
  assert.throws(() => gx!.fill(0), { name: "RangeError", message: /broadcast view/ });
  const [ix, iy] = ga.meshgrid(x, y, { indexing: "ij" });
  assertArray(ix!, [3, 2], ([i]) => i! + 1);
  assertArray(iy!, [3, 2], ([, j]) => 10 * (j! + 1));
  using z = ga.asarray([[5], [6]]).T; // a 2-D view: flattened first
  const [a, b, c] = ga.meshgrid(x, y, z);
  for (const g of [a!, b!, c!]) assert.deepEqual(g.shape, [2, 3, 2]);
  assertArray(a!, [2, 3, 2], ([, j]) => j! + 1);
  assertArray(b!, [2, 3, 2], ([i]) => 10 * (i! + 1));
  assertArray(c!, [2, 3, 2], ([, , k]) => 5 + k!);
});

eachBackend("meshgrid() with sparse keeps extent 1, and with copy gives writable arrays", () => {
  using x = ga.asarray([1, 2, 3]), y = ga.asarray([10, 20]);
  const [sx, sy] = ga.meshgrid(x, y, { sparse: true });
  assert.deepEqual([sx!.shape, sy!.shape], [[1, 3], [2, 1]]);
  const [cx] = ga.meshgrid(x, y, { copy: true });
  cx!.slice(0).fill(0);
  assertArray(cx!, [2, 3], ([i, j]) => (i === 0 ? 0 : j! + 1));
  assertArray(x, [3], ([i]) => i! + 1, "the input is untouched");
});
