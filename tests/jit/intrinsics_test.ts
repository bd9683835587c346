import assert from "node:assert/strict";
import {
  atomicAdd,
  atomicCAS,
  atomicExch,
  atomicMax,
  atomicMin,
  atomicSub,
  blockDim,
  f32,
  f64,
  grid,
  gridDim,
  i32,
  type JitParam,
  shared,
  syncthreads,
  threadIdx,
  u32,
} from "../../src/jit/mod.ts";

Deno.test("the casts convert as JavaScript's |0, >>>0 and Math.fround do", () => {
  assert.deepEqual([i32(-2.7), i32(2 ** 31), i32(NaN)], [-2, -(2 ** 31), 0]);
  assert.deepEqual([u32(-1), u32(2 ** 32 + 3)], [4294967295, 3]);
  assert.equal(f32(0.1), Math.fround(0.1));
  assert.equal(f64(3), 3);
});

Deno.test("the atomics called from JavaScript update the array and return the old element", () => {
  const a = Int32Array.of(1, 2, 3, 4, 5, 6);
  assert.deepEqual(
    [
      atomicAdd(a, 0, 5),
      atomicSub(a, 1, 5),
      atomicMax(a, 2, 9),
      atomicMin(a, 3, -1),
      atomicExch(a, 4, 0),
      atomicCAS(a, 5, 6, 7),
    ],
    [1, 2, 3, 4, 5, 6],
  );
  assert.deepEqual(Array.from(a), [6, -3, 9, -1, 0, 7]);
  const u = Uint32Array.of(0);
  atomicSub(u, 0, 1);
  assert.equal(u[0], 4294967295);
});

Deno.test("shared.array() called from JavaScript makes a zeroed typed array of the element type", () => {
  const tile = shared.array("u16", 8);
  assert.ok(tile instanceof Uint16Array);
  assert.equal(tile.length, 8);
  assert.ok(shared.array("f64", 2) instanceof Float64Array);
});

Deno.test("a kernel body called as plain JavaScript runs as thread 0 of a 1×1×1 grid", () => {
  const body = (a: JitParam, n: JitParam) => {
    const i = grid(1);
    const [x, y] = grid(2);
    syncthreads();
    if (i < n) a[i] = x + y + threadIdx.x + blockDim.x + gridDim.y;
  };
  const a = new Float32Array(2);
  body(a as unknown as JitParam, 2 as JitParam);
  assert.deepEqual(Array.from(a), [2, 0]);
  assert.deepEqual(grid(3), [0, 0, 0]);
});
