// NumPy's repr, on the host: every expected string below is what NumPy 2.4 prints for the same array
// (with `dtype=` always written, as cudeno always writes it).
import assert from "node:assert/strict";
import { arrayRepr, type Element, textEdges } from "../../src/array/core/format.ts";
import type { DType } from "../../src/kernel/dtype.ts";

/** The text form of an array given all its elements in C order (the edges picked out on the host). */
function repr(dtype: DType, shape: number[], all: readonly Element[]): string {
  const edges = textEdges(shape);
  const strides = shape.map((_, k) => shape.slice(k + 1).reduce((a, b) => a * b, 1));
  const values: Element[] = [];
  const walk = (axis: number, at: number): void => {
    if (axis === shape.length) {
      values.push(all[at]!);
      return;
    }
    const d = shape[axis]!, e = edges[axis];
    const shown = e === undefined ? [...Array(d).keys()] : [0, 1, 2, d - 3, d - 2, d - 1];
    for (const i of shown) walk(axis + 1, at + i * strides[axis]!);
  };
  walk(0, 0);
  return arrayRepr({ dtype, shape, edges, values });
}

const range = (n: number, f = (i: number) => i) => Array.from({ length: n }, (_, i) => f(i));

Deno.test("floats print with their fewest round-trip digits, aligned on the point", () => {
  assert.equal(repr("float32", [2, 2], [1, 2, 3, 4]), "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  assert.equal(
    repr("float32", [4], [0.1, 1 / 3, 2.5, -7].map(Math.fround)),
    "array([ 0.1       ,  0.33333334,  2.5       , -7.        ], dtype=float32)",
  );
  assert.equal(repr("float64", [3], [0.5, 1.5, 2.5]), "array([0.5, 1.5, 2.5], dtype=float64)");
  assert.equal(repr("float16", [2], [0.1, 1.23].map(Math.f16round)), "array([0.1 , 1.23], dtype=float16)");
  assert.equal(
    repr("float16", [3], [-405.25, 278, 0.5]),
    "array([-405.2,  278. ,    0.5], dtype=float16)",
    "of two shortest digit strings as close, the even one",
  );
});

Deno.test("floats cut at 8 digits round halves to even, as NumPy's Dragon4", () => {
  assert.equal(
    repr("float64", [3], [2 ** -9, 3 * 2 ** -9, 0.1]),
    "array([0.00195312, 0.00585938, 0.1       ], dtype=float64)",
  );
  assert.equal(
    repr("float64", [3], [123456788.5, 123456789.5, 1]),
    "array([1.23456788e+08, 1.23456790e+08, 1.00000000e+00], dtype=float64)",
  );
});

Deno.test("wide-ranging floats print in scientific notation, shorter ones extended by exact digits", () => {
  assert.equal(
    repr("float32", [4], [1e-5, 1, NaN, -Infinity].map(Math.fround)),
    "array([1.e-05, 1.e+00,    nan,   -inf], dtype=float32)",
  );
  assert.equal(
    repr("float16", [4], [0.1, 2.5e-5, 1.23, -405.25].map(Math.f16round)),
    "array([ 9.998e-02,  2.497e-05,  1.230e+00, -4.052e+02], dtype=float16)",
  );
});

Deno.test("integers and bools align right; 64-bit integers print every digit", () => {
  assert.equal(
    repr("int32", [30], range(30, (i) => i * 1000)),
    "array([    0,  1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,\n" +
      "        9000, 10000, 11000, 12000, 13000, 14000, 15000, 16000, 17000,\n" +
      "       18000, 19000, 20000, 21000, 22000, 23000, 24000, 25000, 26000,\n" +
      "       27000, 28000, 29000], dtype=int32)",
  );
  assert.equal(
    repr("uint64", [2], [2n ** 64n - 1n, 0n]),
    "array([18446744073709551615,                    0], dtype=uint64)",
  );
  assert.equal(
    repr("int64", [2], [-(2n ** 63n), 5n]),
    "array([-9223372036854775808,                    5], dtype=int64)",
  );
  assert.equal(
    repr("bool", [2, 2], [true, false, false, true]),
    "array([[ True, False],\n       [False,  True]], dtype=bool)",
  );
});

Deno.test("0-d and empty arrays print as NumPy prints them", () => {
  assert.equal(repr("float32", [], [-0]), "array(-0., dtype=float32)");
  assert.equal(repr("bool", [], [true]), "array(True, dtype=bool)");
  assert.equal(repr("float32", [2, 0], []), "array([], shape=(2, 0), dtype=float32)");
  assert.equal(repr("int8", [0], []), "array([], dtype=int8)");
});

Deno.test("3-D arrays separate their planes with a blank line", () => {
  assert.equal(
    repr("int16", [2, 3, 4], range(24)),
    "array([[[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]],\n\n" +
      "       [[12, 13, 14, 15],\n        [16, 17, 18, 19],\n        [20, 21, 22, 23]]], dtype=int16)",
  );
});

Deno.test("arrays past 1000 elements summarise long axes to 3 items at each end and show their shape", () => {
  assert.equal(
    repr("float64", [1001], range(1001, (i) => i / 7)),
    "array([0.00000000e+00, 1.42857143e-01, 2.85714286e-01, ...,\n" +
      "       1.42571429e+02, 1.42714286e+02, 1.42857143e+02],\n      shape=(1001,), dtype=float64)",
  );
  assert.equal(
    repr("int32", [2, 10, 100], range(2000)),
    "array([[[   0,    1,    2, ...,   97,   98,   99],\n" +
      "        [ 100,  101,  102, ...,  197,  198,  199],\n" +
      "        [ 200,  201,  202, ...,  297,  298,  299],\n" +
      "        ...,\n" +
      "        [ 700,  701,  702, ...,  797,  798,  799],\n" +
      "        [ 800,  801,  802, ...,  897,  898,  899],\n" +
      "        [ 900,  901,  902, ...,  997,  998,  999]],\n\n" +
      "       [[1000, 1001, 1002, ..., 1097, 1098, 1099],\n" +
      "        [1100, 1101, 1102, ..., 1197, 1198, 1199],\n" +
      "        [1200, 1201, 1202, ..., 1297, 1298, 1299],\n" +
      "        ...,\n" +
      "        [1700, 1701, 1702, ..., 1797, 1798, 1799],\n" +
      "        [1800, 1801, 1802, ..., 1897, 1898, 1899],\n" +
      "        [1900, 1901, 1902, ..., 1997, 1998, 1999]]],\n" +
      "      shape=(2, 10, 100), dtype=int32)",
  );
  // 1024 elements, no axis longer than 6: nothing is cut, but the shape is shown.
  assert.match(
    repr("int8", [2, 2, 2, 2, 2, 2, 2, 2, 2, 2], range(1024, (i) => i % 100)),
    /shape=\(2, 2, 2, 2, 2, 2, 2, 2, 2, 2\), dtype=int8\)$/,
  );
});
