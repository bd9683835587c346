// No silent wrap or rounding on the way in (issue 34, item 4): JS values an array's dtype cannot hold are
// RangeErrors, and arange of integers gives integers. Expected values are written here on the host.
import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { eachBackend } from "./_each_backend.ts";
import { assertArray } from "./_nd.ts";

/** Each integer dtype's range, as NumPy's iinfo gives it. */
const LIMITS: [ga.DType, bigint, bigint][] = [
  ["int8", -128n, 127n],
  ["uint8", 0n, 255n],
  ["int16", -32768n, 32767n],
  ["uint16", 0n, 65535n],
  ["int32", -(2n ** 31n), 2n ** 31n - 1n],
  ["uint32", 0n, 2n ** 32n - 1n],
  ["int64", -(2n ** 63n), 2n ** 63n - 1n],
  ["uint64", 0n, 2n ** 64n - 1n],
];

/** The value as JS gives it for a dtype: a bigint for the 64-bit ones, else a number. */
const js = (dtype: ga.DType, v: bigint) => (dtype.endsWith("64") ? v : Number(v));

eachBackend(
  "asarray() of values outside an integer dtype's range is a RangeError naming the value and dtype",
  () => {
    assert.throws(() => ga.asarray([300], "uint8"), {
      name: "RangeError",
      message: "Cannot put 300 into a uint8 array: 300 is out of uint8's range 0..255",
    });
    for (const [dtype, lo, hi] of LIMITS) {
      using edges = ga.asarray([js(dtype, lo), js(dtype, hi)] as number[], dtype);
      assertArray(edges, [2], ([i]) => js(dtype, i === 0 ? lo : hi), `${dtype}'s limits are kept`);
      for (const v of [lo - 1n, hi + 1n]) {
        assert.throws(() => ga.asarray([[0], [js(dtype, v)]] as number[][], dtype), {
          name: "RangeError",
          message: new RegExp(
            `^Cannot put ${v} into an? ${dtype} array: ${v} is out of ${dtype}'s range ${lo}\\.\\.${hi}$`,
          ),
        }, `${v} into ${dtype}`);
      }
    }
    assert.throws(
      () => ga.asarray([2n ** 63n]),
      { name: "RangeError", message: /out of int64's range/ },
      "bigints default to int64",
    );
    assert.throws(() => ga.asarray([-1], "uint32"), {
      name: "RangeError",
      message: /-1 is out of uint32's range/,
    });
  },
);

eachBackend("NaN and infinities into an integer dtype are RangeErrors; floats truncate as NumPy's", () => {
  for (const v of [NaN, Infinity, -Infinity]) {
    assert.throws(() => ga.asarray([1, v], "int32"), {
      name: "RangeError",
      message: `Cannot put ${v} into an int32 array: integers cannot hold it`,
    });
    using z = ga.zeros([2], "int64");
    assert.throws(() => z.fill(v), { name: "RangeError", message: /integers cannot hold it/ });
  }
  using t = ga.asarray([1.9, -1.9, 255.5], "int16");
  assertArray(t, [3], ([i]) => Math.trunc([1.9, -1.9, 255.5][i!]!));
  assert.throws(() => ga.asarray([256.5], "uint8"), {
    name: "RangeError",
    message: /256\.5 is out of uint8's range/,
  });
});

eachBackend(
  "full(), fill() and assign() of a scalar outside the dtype's range are RangeErrors, writing nothing",
  () => {
    assert.throws(() => ga.full([2], 128, "int8"), {
      name: "RangeError",
      message: "Cannot fill 128 into an int8 array: 128 is out of int8's range -128..127",
    });
    using a = ga.full([3], 7, "uint16");
    assert.throws(() => a.fill(-1), {
      name: "RangeError",
      message: /-1 is out of uint16's range 0\.\.65535/,
    });
    assert.throws(() => a.assign(65536), { name: "RangeError", message: /65536 is out of uint16's range/ });
    assert.throws(() => ga.zerosLike(a).fill(2n ** 16n), RangeError);
    assertArray(a, [3], () => 7, "nothing was written");
    a.fill(65535);
    assertArray(a, [3], () => 65535);
  },
);

eachBackend(
  "an integer that float32 would round is a RangeError naming float64 and the integer dtypes",
  () => {
    const message =
      "float32 holds integers exactly only up to 2^24 (16777216), and it would become 16777216; use float64, or an integer dtype (int32, int64)";
    assert.throws(() => ga.asarray([1, 16777217]), {
      name: "RangeError",
      message: `Cannot put 16777217 into a float32 array: ${message}`,
    });
    assert.throws(() => ga.full([2], 16777217), {
      name: "RangeError",
      message: `Cannot fill 16777217 into a float32 array: ${message}`,
    });
    using f = ga.zeros([2]);
    assert.throws(() => f.assign(-16777217), {
      name: "RangeError",
      message: /-16777217 into a float32 array/,
    });
    assert.throws(() => ga.asarray([16777217n], "float32"), { name: "RangeError", message: /use float64/ });
    // What float32 holds exactly is accepted, and fractions round as they always do.
    using ok = ga.asarray([16777216, -16777216, 16777218, 2 ** 30, 0.1]);
    assert.deepEqual(Array.from(ok.get()), [16777216, -16777216, 16777218, 2 ** 30, Math.fround(0.1)]);
    // The dtypes the message names hold it.
    using wide = ga.asarray([16777217], "float64");
    using whole = ga.asarray([16777217], "int32");
    assert.deepEqual([Number(wide), Number(whole)], [16777217, 16777217]);
  },
);

eachBackend(
  "arange() of integers gives int32 (int64 past its range) as NumPy and PyTorch give integers",
  () => {
    using big = ga.arange(16777216, 16777221);
    assert.equal(big.dtype, "int32");
    assert.deepEqual(
      Array.from(big.get()),
      [16777216, 16777217, 16777218, 16777219, 16777220],
      "no float32 rounding",
    );
    using down = ga.arange(5, -5, -3);
    assert.equal(down.dtype, "int32");
    assert.deepEqual(Array.from(down.get()), [5, 2, -1, -4]);
    using past = ga.arange(2 ** 31 - 2, 2 ** 31 + 1);
    assert.equal(past.dtype, "int64");
    assert.deepEqual(past.tolist(), [2n ** 31n - 2n, 2n ** 31n - 1n, 2n ** 31n]);
    using below = ga.arange(-(2 ** 31) - 1, -(2 ** 31) + 1);
    assert.equal(below.dtype, "int64");
    using fraction = ga.arange(0, 1, 0.25);
    assert.equal(fraction.dtype, "float32", "a fractional argument gives the default float");
    assert.deepEqual(Array.from(fraction.get()), [0, 0.25, 0.5, 0.75]);
    using none = ga.arange(0);
    assert.deepEqual([none.dtype, none.size], ["int32", 0]);
    using asked = ga.arange(4, "float32");
    assert.equal(asked.dtype, "float32", "a dtype given wins");
  },
);

eachBackend(
  "arange() into an integer dtype that cannot hold its values is a RangeError naming the value",
  () => {
    assert.throws(() => ga.arange(300, "uint8"), {
      name: "RangeError",
      message: "Cannot write 299 into a uint8 array: 299 is out of uint8's range 0..255",
    });
    assert.throws(() => ga.arange(-1, 3, "uint16"), {
      name: "RangeError",
      message: /-1 is out of uint16's range/,
    });
    using edge = ga.arange(250, 256, "uint8");
    assert.deepEqual(Array.from(edge.get()), [250, 251, 252, 253, 254, 255]);
  },
);

eachBackend(
  "an integer to a negative integer power is a RangeError, as NumPy's: at once for a number, on reading for an array",
  () => {
    const a = ga.asarray([2, 3], "int32");
    const refused = /Cannot pow: integers to negative integer powers are not allowed/;
    assert.throws(() => a.pow(-1), { name: "RangeError", message: refused });
    assert.throws(() => ga.power(a, -2n), {
      name: "RangeError",
      message: /Cannot power: integers to negative/,
    });
    const deferred = ga.pow(a, ga.asarray([1, -2], "int32"));
    assert.throws(() => deferred.get(), { name: "RangeError", message: refused });
    assert.throws(() => deferred.item(1), refused, "every read throws");
    assertArray(ga.pow(a, ga.asarray([3, 0], "int32")), [2], ([i]) => [8, 1][i!]!);
    assertArray(
      ga.pow(a, ga.asarray([2, 1], "uint8")),
      [2],
      ([i]) => [4, 3][i!]!,
      "unsigned exponents are never negative",
    );
    assertArray(ga.pow(ga.asarray([2, 4]), -1), [2], ([i]) => [0.5, 0.25][i!]!, "floats take any power");
  },
);
