import assert from "node:assert/strict";
import { bfloat16Bits, fromBfloat16Bits, roundBfloat16 } from "../../src/kernel/bfloat16.ts";
import { ArgumentBlock } from "../../src/kernel/args.ts";
import { parseKernels, parseParameterList } from "../../src/kernel/signature.ts";
import { bindArgs } from "../../src/cli/bind.ts";

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

Deno.test("bfloat16Bits() rounds 1 + 2^-8 + 2^-30 once, from float64, up to 0x3f81", () => {
  // Just above halfway between 1 (0x3f80) and 1 + 2^-7 (0x3f81). Through float32 first, the 2^-30
  // would be lost and the tie rounded to even, 0x3f80.
  const value = 1 + 2 ** -8 + 2 ** -30;
  assert.equal(Math.fround(value), 1 + 2 ** -8);
  assert.equal(bfloat16Bits(value), 0x3f81);
  assert.equal(bfloat16Bits(-value), 0xbf81);
  assert.equal(bfloat16Bits(1 + 2 ** -8), 0x3f80); // the tie itself goes to even
});

Deno.test("a kernel argument and a command-line value of 1 + 2^-8 + 2^-30 get the same bfloat16", () => {
  const value = 1 + 2 ** -8 + 2 ** -30;
  const block = new ArgumentBlock("k", parseParameterList("__nv_bfloat16 b", "cuda"), () => 0n);
  block.write(0, value);
  const argument = block.view.getUint16(0, true);
  const bound = bindArgs(parseKernels("__global__ void k(__nv_bfloat16 *x) {}", "cuda")[0]!, [
    `x=full(1, ${value})`,
  ]).args[0]!;
  assert.ok(bound.kind === "array");
  assert.equal(argument, 0x3f81);
  assert.equal(bound.data[0], 0x3f81);
});
