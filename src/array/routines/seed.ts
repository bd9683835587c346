/**
 * The seed of the counter-based generator: an integer from 0 to 2^64 − 1, or fresh random bits where
 * none is given.
 *
 * @module
 */

import { describe } from "../core/describe.ts";

/**
 * The 64-bit key of `seed` (a number or a bigint); without one, 64 bits from `crypto.getRandomValues`.
 * `what` names the numbers in messages ("uniform").
 *
 * @throws {TypeError} for a seed that is neither a number nor a bigint.
 * @throws {RangeError} for a seed outside 0..2^64 − 1 or not an integer.
 */
export function seedOf(seed: unknown, what: string): bigint {
  if (seed === undefined) {
    const words = crypto.getRandomValues(new Uint32Array(2));
    return (BigInt(words[1]!) << 32n) | BigInt(words[0]!);
  }
  if (typeof seed !== "number" && typeof seed !== "bigint") {
    throw new TypeError(`Cannot draw ${what} numbers with seed ${describe(seed)}: pass a number or a bigint`);
  }
  const value = typeof seed === "number" && Number.isSafeInteger(seed) ? BigInt(seed) : seed;
  if (typeof value !== "bigint" || value < 0n || value >= 2n ** 64n) {
    throw new RangeError(
      `Cannot draw ${what} numbers with seed ${describe(seed)}: pass an integer from 0 to 2^64 - 1`,
    );
  }
  return value;
}

const M64 = (1n << 64n) - 1n;

/** SplitMix64's finalizer: a bijection of 64-bit integers that mixes every bit into every other. */
function mix64(x: bigint): bigint {
  x = (x + 0x9e3779b97f4a7c15n) & M64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & M64;
  return x ^ (x >> 31n);
}

/** The key of the `index`-th generator spawned by the generator of key `key` (counting from 1). */
export function spawnKey(key: bigint, index: number): bigint {
  return mix64((mix64(key) + BigInt(index)) & M64);
}
