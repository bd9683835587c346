// Arrays as JavaScript values (issue 34, item 3): Symbol.toPrimitive, for…of, JSON.stringify, the shape
// setter, and members that cannot be reassigned. Expected values are written here on the host.
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray } from "./_nd.ts";

/** `a` where TypeScript would refuse JS operators on an object (the point of these tests). */
const js = (a: ga.GPUArray) => a as unknown as number;

eachBackend("Number(), +a, comparisons and arithmetic of a 0-d or one-element array use its element", () => {
  using half = ga.full([], 2.5);
  assert.equal(Number(half), 2.5);
  assert.equal(+half, 2.5);
  assert.equal(js(half) + 1, 3.5);
  assert.equal(js(half) * 2, 5);
  assert.ok(js(half) < 3 && js(half) > 2);
  assert.equal(Math.max(js(half), 1), 2.5);
  using one = ga.asarray([[7]], "int32"); // one element, two dimensions: NumPy's int(a) takes it too
  assert.equal(Number(one), 7);
  assert.equal(js(one) - 10, -3);
  using flag = ga.asarray([true]);
  assert.equal(Number(flag), 1);
  assert.equal(js(flag) + 1, 2);
  using sum = ga.asarray([1, 2, 3, 4]).sum(0); // a reduction along an axis gives a 0-d array
  assert.equal(Number(sum), 10);
});

eachBackend("a 64-bit integer array of one element converts to a bigint", () => {
  using big = ga.asarray([2n ** 62n + 1n]);
  assert.equal((big as unknown as bigint) + 1n, 2n ** 62n + 2n, "a + 1n is exact");
  assert.ok((big as unknown as bigint) > 2n ** 62n);
  assert.equal(Number(big), Number(2n ** 62n + 1n), "Number(a) converts the bigint");
  assert.throws(() => +big, TypeError, "+a of a bigint is JS's TypeError");
  using u = ga.full([], 2n ** 64n - 1n, "uint64");
  assert.equal(`${u}`, "18446744073709551615");
});

eachBackend("a template string of a 0-d array is its element; of a larger array, NumPy's repr", () => {
  using half = ga.full([], 2.5);
  assert.equal(`loss ${half}`, "loss 2.5");
  assert.equal(String(half), "2.5");
  using flag = ga.full([], true, "bool");
  assert.equal(`${flag}`, "true");
  using m = ga.asarray([[1, 2], [3, 4]]);
  assert.equal(`${m}`, "array([[1., 2.],\n       [3., 4.]], dtype=float32)");
  using one = ga.asarray([5], "int32");
  assert.equal(
    `${one}`,
    "array([5], dtype=int32)",
    "a one-element 1-D array prints as NumPy's str of a list",
  );
});

eachBackend(
  "an array of other than one element used as a number is a TypeError naming its shape and get()",
  () => {
    using m = ga.zeros([2, 3]);
    for (const use of [() => Number(m), () => +m, () => js(m) + 1, () => js(m) < 1]) {
      assert.throws(use, {
        name: "TypeError",
        message:
          "Cannot use an array of shape [2, 3] (6 elements) as a number: only an array of one element converts; read the elements with a.get(), or one with a.item(i)",
      });
    }
    using none = ga.zeros([0]);
    assert.throws(() => Number(none), { name: "TypeError", message: /shape \[0\] \(0 elements\)/ });
  },
);

eachBackend("for…of yields the views along the first axis, as NumPy iterates", () => {
  const host = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]];
  using m = ga.asarray(host, "int32");
  const rows = [...m];
  assert.equal(rows.length, 3);
  rows.forEach((row, i) => assertArray(row, [4], ([j]) => host[i]![j!]!, `row ${i}`));
  // The rows are views: writing into one writes into the matrix.
  rows[1]!.fill(-1);
  assertArray(m, [3, 4], ([i, j]) => (i === 1 ? -1 : host[i!]![j!]!));
  for (const row of rows) row.free();
  // A transposed view iterates its own first axis: the columns.
  const columns: number[][] = [];
  for (const column of m.T) {
    columns.push(Array.from(column.get()));
    column.free();
  }
  assert.deepEqual(columns, [0, 1, 2, 3].map((j) => [0, 1, 2].map((i) => (i === 1 ? -1 : host[i]![j]!))));
  // A vector yields 0-d arrays, each converting to its element.
  using v = ga.asarray([1.5, -2, 4]);
  assert.deepEqual([...v].map((x) => Number(x)), [1.5, -2, 4]);
  using empty = ga.zeros([0, 3]);
  assert.deepEqual([...empty], []);
});

eachBackend("for…of over a 0-d array is a TypeError, as NumPy's", () => {
  using s = ga.full([], 1);
  assert.throws(() => [...s], {
    name: "TypeError",
    message: "Cannot iterate over a 0-d array: it has no axis; read its element with a.item() or Number(a)",
  });
});

eachBackend(
  "JSON.stringify writes the nested list; 64-bit integers as numbers where safe, else strings",
  () => {
    const host = [[1.5, -2], [0, 4]];
    using m = ga.asarray(host, "float64");
    assert.equal(JSON.stringify({ m }), JSON.stringify({ m: host }));
    assert.equal(JSON.stringify(m.T), JSON.stringify([[1.5, 0], [-2, 4]]), "a view in its own order");
    using big = ga.asarray([1n, -(2n ** 53n) + 1n, 2n ** 53n, -(2n ** 63n)]);
    assert.equal(JSON.stringify(big), `[1,${-(2 ** 53) + 1},"9007199254740992","-9223372036854775808"]`);
    using flags = ga.asarray([true, false]);
    assert.equal(JSON.stringify(flags), "[true,false]");
    using s = ga.full([], 3, "int16");
    assert.equal(JSON.stringify(s), "3");
    using odd = ga.asarray([NaN, Infinity, 1]);
    assert.equal(JSON.stringify(odd), "[null,null,1]", "as JSON.stringify writes the numbers");
  },
);

eachBackend("a.shape = ... reshapes in place where a view fits, as NumPy's shape setter", () => {
  const host = Array.from({ length: 6 }, (_, i) => i * 10);
  using a = ga.asarray(host, "int32");
  a.shape = [2, 3];
  assert.deepEqual([a.shape, a.strides], [[2, 3], [3, 1]]);
  assertArray(a, [2, 3], ([i, j]) => host[i! * 3 + j!]!);
  a.shape = [3, -1];
  assert.deepEqual(a.shape, [3, 2]);
  using b = a.add(1); // computes through the new layout
  assertArray(b, [3, 2], ([i, j]) => host[i! * 2 + j!]! + 1);
  // A view whose strides allow it: every other row of a contiguous matrix, reshaped to its rows' halves.
  using m = ga.asarray([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], "int32");
  using rows = m.slice([null, null, 2]);
  rows.shape = [2, 2, 2];
  assertArray(rows, [2, 2, 2], ([i, j, k]) => 8 * i! + 2 * j! + k!);
  using s = ga.full([], 4, "int32");
  s.shape = [1, 1];
  assert.equal(Number(s), 4);
});

eachBackend(
  "a.shape = ... that only a copy could give is a TypeError naming reshape(); the array is unchanged",
  () => {
    using m = ga.asarray([[0, 1, 2], [3, 4, 5]], "int32");
    using t = m.T;
    assert.throws(() => {
      t.shape = [6];
    }, {
      name: "TypeError",
      message:
        "Cannot set the shape of an array of shape [3, 2] (strides [1, 3]) to [6] in place: its elements do not lie in that shape's order in memory; use a.reshape(6), which copies them",
    });
    assert.deepEqual([t.shape, t.strides], [[3, 2], [1, 3]]);
    assertArray(t, [3, 2], ([i, j]) => 3 * j! + i!);
    assert.throws(() => {
      m.shape = [4];
    }, { name: "RangeError", message: /the sizes differ \(6 elements\)/ });
    assert.throws(() => {
      m.shape = "6" as never;
    }, { name: "TypeError", message: "Cannot set the shape to 6: give an array of extents, [3, 2]" });
    assertArray(m, [2, 3], ([i, j]) => 3 * i! + j!);
    const freed = ga.zeros([4]);
    freed.free();
    assert.throws(() => {
      freed.shape = [2, 2];
    }, { name: "TypeError", message: /it was freed/ });
  },
);

eachBackend("strides, dtype, the buffer and the rest of the layout cannot be reassigned", () => {
  using a = ga.asarray([1, 2, 3]);
  const set = (member: string, value: unknown) => () => {
    (a as unknown as Record<string, unknown>)[member] = value;
  };
  assert.throws(set("strides", [2]), {
    name: "TypeError",
    message:
      "Cannot assign an array's strides: they follow from its layout; make a view instead (a.T, a.slice(...), a.reshape(...))",
  });
  assert.throws(set("dtype", "int32"), {
    name: "TypeError",
    message: "Cannot assign an array's dtype: convert with a.astype(dtype), which copies",
  });
  assert.throws(set("buffer", null), {
    name: "TypeError",
    message:
      "Cannot assign an array's buffer: the memory is the array's; write into it with a.set(host) or a.assign(b)",
  });
  for (const member of ["offset", "size", "base", "backend", "ndim", "nbytes"]) {
    assert.throws(set(member, 7), {
      name: "TypeError",
      message: new RegExp(`property '?${member}'? of (object ')?\\[object GPUArray\\]`),
    });
  }
  assert.deepEqual([a.dtype, a.shape, a.strides, a.offset, a.size], ["float32", [3], [1], 0, 3]);
  assertArray(a, [3], ([i]) => i! + 1);
});
