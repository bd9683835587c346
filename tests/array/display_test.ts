// Seeing arrays on the device: the expected text is NumPy 2.4's repr of the same array (dtype always written).
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";

const inspectable = (a: ga.GPUArray) => a as unknown as Record<symbol, () => unknown>;

eachBackend("toString(), console.log and Deno.inspect show a 2-D array as NumPy's repr does", () => {
  using a = ga.asarray([[1, 2], [3, 4]]);
  const text = "array([[1., 2.],\n       [3., 4.]], dtype=float32)";
  assert.equal(String(a), text);
  assert.equal(`${a}`, text);
  assert.equal(Deno.inspect(a), text);
  assert.equal(String(a.T), "array([[1., 3.],\n       [2., 4.]], dtype=float32)", "a transposed view");
});

eachBackend("0-d, empty, bool and int64 arrays print as NumPy prints them", () => {
  using scalar = ga.full([], 2.5);
  assert.equal(scalar.toString(), "array(2.5, dtype=float32)");
  using empty = ga.zeros([0, 3]);
  assert.equal(String(empty), "array([], shape=(0, 3), dtype=float32)");
  using flags = ga.asarray([true, false]);
  assert.equal(String(flags), "array([ True, False], dtype=bool)");
  using big = ga.asarray([[2n ** 62n + 1n, -3n]]);
  assert.equal(String(big), "array([[4611686018427387905,                  -3]], dtype=int64)");
  using count = ga.full([], 7, "uint8");
  assert.equal(count.toString(), "array(7, dtype=uint8)");
});

eachBackend("a float16 array prints its values as numbers", () => {
  using a = ga.asarray([0.1, 1.23]);
  if (!a.backend.supports("float16")) return;
  using h = a.astype("float16");
  assert.equal(String(h), "array([0.1 , 1.23], dtype=float16)");
});

eachBackend("a summarised view prints its edges as NumPy does", () => {
  using a = ga.arange(2000, "float32").reshape(20, 100);
  using view = a.T.slice([null, null, -1]);
  assert.equal(
    String(view),
    "array([[9.900e+01, 1.990e+02, 2.990e+02, ..., 1.799e+03, 1.899e+03,\n        1.999e+03],\n" +
      "       [9.800e+01, 1.980e+02, 2.980e+02, ..., 1.798e+03, 1.898e+03,\n        1.998e+03],\n" +
      "       [9.700e+01, 1.970e+02, 2.970e+02, ..., 1.797e+03, 1.897e+03,\n        1.997e+03],\n" +
      "       ...,\n" +
      "       [2.000e+00, 1.020e+02, 2.020e+02, ..., 1.702e+03, 1.802e+03,\n        1.902e+03],\n" +
      "       [1.000e+00, 1.010e+02, 2.010e+02, ..., 1.701e+03, 1.801e+03,\n        1.901e+03],\n" +
      "       [0.000e+00, 1.000e+02, 2.000e+02, ..., 1.700e+03, 1.800e+03,\n        1.900e+03]], shape=(100, 20), dtype=float32)",
  );
});

eachBackend("printing a view of 10^10 elements reads only the elements it shows", () => {
  using row = ga.arange(100000, undefined, 1, "int32");
  using huge = ga.broadcastTo(row, [100000, 100000]);
  const line = "[    0,     1,     2, ..., 99997, 99998, 99999]";
  assert.equal(
    String(huge),
    `array([${line},\n       ${line},\n       ${line},\n       ...,\n       ${line},\n       ${line},\n` +
      `       ${line}],\n      shape=(100000, 100000), dtype=int32)`,
  );
});

eachBackend("item() gives the one element as a number, a bigint or a boolean", () => {
  using f = ga.full([1, 1, 1], 3.5);
  assert.equal(f.item(), 3.5);
  using i = ga.asarray([2n ** 62n + 1n]);
  assert.equal(i.item(), 2n ** 62n + 1n);
  using u = ga.full([], 2n ** 64n - 1n, "uint64");
  assert.equal(u.item(), 2n ** 64n - 1n);
  using b = ga.asarray([[true]]);
  assert.equal(b.item(), true);
  using a = ga.arange(12).reshape(3, 4);
  using one = a.slice(2, [1, 2]);
  assert.equal(one.item(), 9, "a one-element view");
  assert.throws(() => a.item(), {
    name: "RangeError",
    message: /^Cannot take item\(\) of an array of shape \[3, 4\]: it has 12 elements/,
  });
});

eachBackend(
  "item(i) and item(i, j) give the element at a flat index or one index per axis, negatives from the end, as NumPy",
  () => {
    using a = ga.arange(12).reshape(3, 4);
    using t = a.T; // shape [4, 3]: t[i, j] = 4 * j + i, flat index f is t[f / 3, f % 3]
    assert.equal(a.item(7), 7);
    assert.equal(a.item(-1), 11);
    assert.equal(a.item(2, 1), 9);
    assert.equal(a.item(-1, -4), 8);
    assert.equal(t.item(5), 4 * 2 + 1, "a flat index into a transposed view counts in its C order");
    assert.equal(t.item(3, 0), 3);
    using i = ga.asarray([[1n, -2n], [3n, 2n ** 62n]]);
    assert.equal(i.item(1, 1), 2n ** 62n);
    using b = ga.asarray([true, false, true]);
    assert.equal(b.item(1), false);
    assert.throws(() => a.item(12), {
      name: "RangeError",
      message:
        "Cannot take item(12) of an array of shape [3, 4]: index 12 is out of range for its 12 elements (use -12 to 11)",
    });
    assert.throws(() => a.item(0, 4), {
      name: "RangeError",
      message:
        "Cannot take item(0, 4) of an array of shape [3, 4]: index 4 is out of range along axis 1, of 4 elements (use -4 to 3)",
    });
    assert.throws(() => a.item(0, 1, 2), {
      name: "RangeError",
      message:
        "Cannot take item(0, 1, 2) of an array of shape [3, 4]: give one flat index or one index per axis (2)",
    });
    assert.throws(() => a.item(1.5), {
      name: "TypeError",
      message: "Cannot take item(1.5) of an array of shape [3, 4]: 1.5 is not an integer index",
    });
  },
);

eachBackend("tolist() gives nested JS arrays of host values, in the view's order", () => {
  using a = ga.arange(6).reshape(2, 3);
  assert.deepEqual(a.T.tolist(), [[0, 3], [1, 4], [2, 5]]);
  using i = ga.asarray([[1n, -2n]]);
  assert.deepEqual(i.tolist(), [[1n, -2n]]);
  using b = ga.asarray([true, false]);
  assert.deepEqual(b.tolist(), [true, false]);
  using s = ga.full([], 4, "int32");
  assert.equal(s.tolist(), 4);
  using e = ga.zeros([2, 0]);
  assert.deepEqual(e.tolist(), [[], []]);
});

eachBackend("Jupyter.display gives an HTML table beside the text form", () => {
  using a = ga.asarray([[1.5, 2], [3, 4], [5, 6]]);
  const bundle = inspectable(a)[Symbol.for("Jupyter.display")]!() as Record<string, string>;
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/plain"]);
  assert.equal(bundle["text/plain"], String(a));
  const cells = [...bundle["text/html"]!.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells, ["1.5", "2.", "3.", "4.", "5.", "6."]);
  assert.match(bundle["text/html"]!, /<caption>shape \(3, 2\), float32<\/caption>/);
});

eachBackend("a large array's HTML table is summarised to its edge rows and columns", () => {
  using a = ga.arange(30 * 100, undefined, 1, "int32").reshape(30, 100);
  const html = (inspectable(a)[Symbol.for("Jupyter.display")]!() as Record<string, string>)["text/html"]!;
  const rows = [...html.matchAll(/<tr><th>(\d+)<\/th>(.*?)<\/tr>/g)];
  assert.deepEqual(rows.map((r) => Number(r[1])), [
    ...Array(10).keys(),
    ...Array.from({ length: 10 }, (_, i) => 20 + i),
  ]);
  for (const [, r, body] of rows) {
    const values = [...body!.matchAll(/<td>(\d+)<\/td>/g)].map((m) => Number(m[1]));
    const columns = [...Array(10).keys(), ...Array.from({ length: 10 }, (_, i) => 90 + i)];
    assert.deepEqual(values, columns.map((c) => Number(r) * 100 + c));
  }
  assert.equal(html.split("⋮").length - 1, 21, "one row of ⋮ between the edges");
  assert.ok(html.includes("<th>…</th>"));
});

eachBackend("a freed array prints that it was freed instead of throwing", () => {
  const a = ga.zeros([2, 3]);
  a.free();
  assert.equal(String(a), "array(<freed>, shape=(2, 3), dtype=float32)");
});
