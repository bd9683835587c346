/**
 * Values of array parameters: materializeArray()'s generators (zeros, ones, full, arange, linspace,
 * seeded rand and randn), .npy files and its errors; and summarize(), the first elements, range, mean
 * and checksum printed for an array.
 */

import assert from "node:assert/strict";
import { writeNpy } from "../../src/kernel/npy.ts";
import { parseArgValue } from "../../src/cli/values.ts";
import { materializeArray } from "../../src/cli/materialize.ts";
import { summarize } from "../../src/cli/summary.ts";
import type { DType } from "../../src/kernel/dtype.ts";
import { array, assertUsageError, env } from "./_values.ts";

Deno.test("materializeArray() makes zeros, ones, full, arange and linspace arrays", () => {
  assert.deepEqual(array("zeros(2, 3)", "int32"), { data: new Int32Array(6), shape: [2, 3] });
  assert.deepEqual(array("ones(3)", "bool"), { data: new Uint8Array([1, 1, 1]), shape: [3] });
  assert.deepEqual(array("ones(2)", "uint64").data, new BigUint64Array([1n, 1n]));
  assert.deepEqual(array("full(2, 2, half * 3)", "float16"), {
    data: new Float16Array(4).fill(1.5),
    shape: [2, 2],
  });
  assert.deepEqual(array("full(1, -1)", "bfloat16").data, new Uint16Array([0xbf80]));
  assert.deepEqual(array("arange(m)", "int64").data, new BigInt64Array([0n, 1n, 2n, 3n, 4n]));
  assert.deepEqual(array("arange(256)", "uint8").data[255], 255);
  assert.deepEqual(array("linspace(0, 1, 5)").data, new Float32Array([0, 0.25, 0.5, 0.75, 1]));
  assert.deepEqual(array("linspace(0, 4, m)", "int32").data, new Int32Array([0, 1, 2, 3, 4]));
  assert.deepEqual(array("linspace(3, 7, 1)", "float64").data, new Float64Array([3]));
  assert.deepEqual(array("zeros(0)", "float64"), { data: new Float64Array(0), shape: [0] });
  assert.deepEqual(array("zeros(3, 0)").shape, [3, 0]);
});

Deno.test("materializeArray() matches numpy.linspace, ends included", () => {
  // numpy.linspace(-1, 2, 7) and numpy.linspace(0, 1, 11)[3], printed with repr().
  assert.deepEqual(Array.from(array("linspace(-1, 2, 7)", "float64").data as Float64Array), [
    -1,
    -0.5,
    0,
    0.5,
    1,
    1.5,
    2,
  ]);
  assert.equal(array("linspace(0, 1, 11)", "float64").data[3], 0.30000000000000004);
});

Deno.test("materializeArray() makes the same random numbers for the same seed and parameter", () => {
  // Checked against the reference C code of splitmix64 and xoshiro128** (prng.di.unimi.it).
  const golden = [0.70079092567881296, 0.39260802609084577, 0.5661271208530857, 0.3004880254696024];
  assert.deepEqual(Array.from(array("rand(4)", "float64").data as Float64Array), golden);
  assert.deepEqual(array("rand(100)").data, array("rand(100)").data);
  assert.deepEqual(array("randn(100)").data, array("randn(100)", "float32", { seed: 0 }).data);
  assert.notDeepEqual(array("rand(100)").data, array("rand(100)", "float32", { seed: 1 }).data);
  assert.deepEqual(
    array("rand(100)", "float32", { seed: -1 }).data,
    array("rand(100)", "float32", { seed: 2n ** 64n - 1n }).data,
  );
  const other = materializeArray(parseArgValue("rand(100)"), env, { dtype: "float32", param: "b" });
  assert.notDeepEqual(array("rand(100)").data, other.data);
});

Deno.test("materializeArray() draws rand() uniformly from [0, 1) in every float type", () => {
  for (const dtype of ["float64", "float32", "float16", "bfloat16"] as const) {
    const { data } = array("rand(20000)", dtype);
    const values = Array.from(
      data as ArrayLike<number>,
      (v) => dtype === "bfloat16" ? summarize(new Uint16Array([v]), dtype).first[0] : v,
    );
    assert.ok(values.every((v) => v >= 0 && v < 1), dtype);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    assert.ok(Math.abs(mean - 0.5) < 0.01, `${dtype} mean ${mean}`);
  }
});

Deno.test("materializeArray() draws randn() from the standard normal distribution", () => {
  const { data, shape } = array("randn(201, 100)", "float64");
  assert.deepEqual(shape, [201, 100]);
  const values = Array.from(data as Float64Array);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length;
  assert.ok(Math.abs(mean) < 0.02, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 0.03, `variance ${variance}`);
  assert.ok(values.every(Number.isFinite));
});

Deno.test("materializeArray() loads a .npy file of the parameter's dtype", () => {
  const files = new Map([["in.npy", writeNpy(new Float32Array([1, 2, 3, 4]), [2, 2])]]);
  const readFile = (path: string) => files.get(path) ?? Deno.readFileSync(path);
  assert.deepEqual(array("@in.npy", "float32", { readFile }), {
    data: new Float32Array([1, 2, 3, 4]),
    shape: [2, 2],
  });
  assertUsageError(
    () => array("@in.npy", "float64", { readFile }),
    "Cannot use a=@in.npy: in.npy holds float32, but parameter a points to double (float64); " +
      "convert it with np.save(path, array.astype(np.float64))",
  );
  assertUsageError(
    () => array("@missing.npy", "float32", { readFile }),
    `Cannot use a=@missing.npy: there is no file missing.npy (paths are relative to the current directory, ${Deno.cwd()})`,
  );
  assertUsageError(
    () => array("@broken.npy", "float32", { readFile: () => new Uint8Array(3) }),
    /^Cannot read broken\.npy: not a \.npy file/,
  );
  assertUsageError(
    () =>
      array("@x.npy", "float32", {
        readFile: () => {
          throw new Error("disk on fire");
        },
      }),
    "Cannot use a=@x.npy: cannot read x.npy: disk on fire",
  );
});

Deno.test("materializeArray() rejects bad sizes, elements that do not fit and scalars", () => {
  const cases: [string, DType, string][] = [
    [
      "zeros(-1)",
      "float32",
      "Cannot use a=zeros(-1): a size must be a non-negative integer, but this one is -1 (column 9)",
    ],
    [
      "zeros(m / 2)",
      "float32",
      "Cannot use a=zeros(m / 2): a size must be a non-negative integer, but this one is 2.5 (column 11)",
    ],
    [
      "ones(2**60, 2**60)",
      "uint8",
      "Cannot use a=ones(2**60, 2**60): the size 1152921504606846976 is too large (column 9)",
    ],
    [
      "zeros(2**40, 2**20)",
      "uint8",
      "Cannot use a=zeros(2**40, 2**20): 1152921504606846976 elements of 1 byte do not fit in memory (column 3)",
    ],
    [
      "rand(4)",
      "int32",
      "Cannot use a=rand(4): rand makes floats, but parameter a points to int, which is not a float type; use arange, full or @file.npy (column 3)",
    ],
    [
      "full(3, 2.5)",
      "int32",
      "Cannot use a=full(3, 2.5): parameter a points to int, which needs an integer (column 11)",
    ],
    // Checked before allocating, so a huge array is not made only to be thrown away.
    [
      "full(2**40, 2**20, -1)",
      "uint8",
      "Cannot use a=full(2**40, 2**20, -1): parameter a points to unsigned char, which cannot be negative (column 22)",
    ],
    [
      "full(3, -1)",
      "uint16",
      "Cannot use a=full(3, -1): parameter a points to unsigned short, which cannot be negative (column 11)",
    ],
    [
      "arange(300)",
      "uint8",
      "Cannot use a=arange(300): arange(300) reaches 299, but parameter a points to unsigned char, which holds 0 to 255 (column 3)",
    ],
    [
      "arange(70000)",
      "float16",
      "Cannot use a=arange(70000): arange(70000) reaches 69999, but parameter a points to __half, which holds at most ±65504 (column 3)",
    ],
    [
      "linspace(0, 1, 5)",
      "int32",
      "Cannot use a=linspace(0, 1, 5): element 1 is 0.25, but parameter a points to int, which needs an integer (column 3)",
    ],
    [
      "zeros(q)",
      "int32",
      "Cannot use a=zeros(q): there is no scalar argument 'q'; give it with --arg q=VALUE (column 9)",
    ],
    [
      "3",
      "float32",
      "Cannot use a=3: parameter a is a pointer to float, so it needs an array, such as full(n, 3), rand(n) or @file.npy",
    ],
  ];
  for (const [text, dtype, message] of cases) assertUsageError(() => array(text, dtype), message);
  assertUsageError(
    () => array("rand(2)", "float32", { seed: 0.5 }),
    "Cannot use seed 0.5: the seed must be an integer",
  );
});

Deno.test("summarize() gives the first elements, the range, the mean and an FNV-1a checksum", () => {
  const summary = summarize(new Float32Array([3, -1, 4, 1, 5, 9, 2, 6, 5, 3]));
  assert.deepEqual(summary.first, [3, -1, 4, 1, 5, 9, 2, 6]);
  assert.deepEqual([summary.min, summary.max, summary.mean, summary.nans], [-1, 9, 3.7, 0]);
  // FNV-1a test vectors: "" is 811c9dc5, "a" is e40c292c, "foobar" is bf9cf968.
  assert.equal(summarize(new Uint8Array()).checksum, "811c9dc5");
  assert.equal(summarize(new Uint8Array([0x61])).checksum, "e40c292c");
  assert.equal(summarize(new TextEncoder().encode("foobar")).checksum, "bf9cf968");
  assert.equal(summarize(new Int32Array([3, -1, 4])).checksum, "dfb8bd86");
});

Deno.test("summarize() skips NaN in the range and mean, and counts it", () => {
  const summary = summarize(new Float64Array([NaN, 1, 2, NaN, 6]));
  assert.deepEqual([summary.min, summary.max, summary.mean, summary.nans], [1, 6, 3, 2]);
  const empty = summarize(new Float32Array([NaN]));
  assert.ok(Number.isNaN(empty.min) && Number.isNaN(empty.max) && Number.isNaN(empty.mean));
});

Deno.test("summarize() reads bigint arrays as numbers and bfloat16 bits when asked", () => {
  assert.deepEqual(summarize(new BigInt64Array([-5n, 7n])).first, [-5, 7]);
  const bf16 = summarize(new Uint16Array([0x3f80, 0xc040]), "bfloat16");
  assert.deepEqual([bf16.first, bf16.min, bf16.max], [[1, -3], -3, 1]);
});
