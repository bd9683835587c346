import assert from "node:assert/strict";
import { bfloat16Bits, fromBfloat16Bits, roundBfloat16 } from "../../src/cli/bfloat16.ts";

Deno.test("bfloat16Bits() and fromBfloat16Bits() round-trip every bit pattern but NaN's", () => {
  for (let bits = 0; bits < 0x10000; bits++) {
    const value = fromBfloat16Bits(bits);
    if (Number.isNaN(value)) assert.equal(bfloat16Bits(value), 0x7fc0);
    else assert.equal(bfloat16Bits(value), bits, `0x${bits.toString(16)}`);
  }
});

Deno.test("roundBfloat16() rounds to nearest, ties to even, from the full float64 value", () => {
  assert.equal(roundBfloat16(1 + 2 ** -8), 1); // halfway between 1 and 1 + 2^-7: even is 1
  assert.equal(roundBfloat16(1 + 3 * 2 ** -8), 1 + 2 ** -6); // halfway: even is 1 + 2^-6
  assert.equal(roundBfloat16(1 + 2 ** -8 + 2 ** -40), 1 + 2 ** -7); // just above halfway
  assert.equal(roundBfloat16(-(1 + 2 ** -8 + 2 ** -40)), -(1 + 2 ** -7));
  assert.equal(roundBfloat16(1 / 3), 0.333984375);
});

Deno.test("roundBfloat16() keeps subnormals, zeros' signs, infinities and NaN", () => {
  assert.equal(roundBfloat16(2 ** -133), 2 ** -133);
  assert.equal(roundBfloat16(2 ** -135), 0);
  assert.ok(Object.is(roundBfloat16(-(2 ** -135)), -0));
  assert.equal(roundBfloat16(3 * 2 ** -134), 2 ** -132); // halfway between 2^-133 and 2^-132: even
  assert.ok(Object.is(roundBfloat16(-0), -0));
  assert.equal(roundBfloat16(-Infinity), -Infinity);
  assert.ok(Number.isNaN(roundBfloat16(NaN)));
});

Deno.test("roundBfloat16() overflows to infinity past the largest bfloat16", () => {
  const max = fromBfloat16Bits(0x7f7f);
  assert.equal(roundBfloat16(max), max);
  assert.equal(roundBfloat16(max * (1 + 2 ** -9)), max);
  assert.equal(roundBfloat16(max * (1 + 2 ** -8)), Infinity); // past halfway to 2^128
  assert.equal(roundBfloat16(-1e39), -Infinity);
  assert.equal(bfloat16Bits(1e39), 0x7f80);
});
