/**
 * Host-side cost of the JIT: translating kernels (acorn parse, typing, IR), generating their C, and
 * simulating one.
 *
 * @module
 */

import { f32, grid, jit, type JitParam, shared, syncthreads, threadIdx } from "../../src/jit/mod.ts";
import { KERNELS } from "../../tests/jit/kernels.ts";

const saxpy = (a: JitParam, x: JitParam, y: JitParam, n: JitParam) => {
  const i = grid(1);
  if (i < n) y[i] = a * x[i] + y[i];
};

Deno.bench("jit() translates the saxpy kernel", { group: "translate", baseline: true }, () => {
  jit({ a: "f32", x: "f32[]", y: "f32[]", n: "i32" }, saxpy, { name: "saxpy" });
});

Deno.bench("jit() translates a tiled matmul kernel", { group: "translate" }, () => {
  jit({ a: "f32[]", b: "f32[]", c: "f32[]", n: "i32" }, (a, b, c, n) => {
    const ta = shared.array("f32", 256), tb = shared.array("f32", 256);
    const tx = threadIdx.x, ty = threadIdx.y;
    const [col, row] = grid(2);
    let acc = f32(0);
    for (let t = 0; t < n; t += 16) {
      ta[ty * 16 + tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0;
      tb[ty * 16 + tx] = col < n && t + ty < n ? b[(t + ty) * n + col] : 0;
      syncthreads();
      for (let i = 0; i < 16; i++) acc += ta[ty * 16 + i] * tb[i * 16 + tx];
      syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
  }, { name: "matmul" });
});

Deno.bench(
  "jit() translates the saxpy kernel and generates its CUDA C and OpenCL C",
  { group: "generate" },
  () => {
    const k = jit({ a: "f32", x: "f32[]", y: "f32[]", n: "i32" }, saxpy, { name: "saxpy" });
    k.source("cuda");
    k.source("opencl");
  },
);

const softmax = KERNELS.find((c) => c.name === "softmax_rows")!;
const args = softmax.makeArgs(1);

Deno.bench("simulate() runs the softmax kernel over 6 rows of 300", { group: "simulate" }, () => {
  softmax.kernel.simulate(softmax.config(), ...args);
});
