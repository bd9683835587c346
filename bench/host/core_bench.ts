/**
 * Host-side paths that need no GPU: signature parsing, argument packing, launch-size checks.
 *
 *   deno task bench
 */
import { parseKernels, parseParameterList } from "../../src/kernel/signature.ts";
import { ArgumentBlock } from "../../src/kernel/args.ts";
import { checkLimits, readDim3 } from "../../src/kernel/dims.ts";
import { fixedArity } from "../../src/kernel/fixed_arity.ts";

const SOURCE =
  `extern "C" __global__ void __launch_bounds__(256) saxpy(int n, float a, const float *__restrict__ x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
__global__ void args8(float *a, float *b, float *c, float *d, int n, float alpha, float beta, int flag) {}`;

Deno.bench("parseKernels() reads two CUDA kernels' signatures", () => {
  parseKernels(SOURCE, "cuda");
});

const params = parseParameterList(
  "float *a, float *b, float *c, float *d, int n, float alpha, float beta, int flag",
  "cuda",
);
const block = new ArgumentBlock("args8", params, (v) => v as bigint);

Deno.bench("ArgumentBlock.write() packs eight arguments (four pointers, four scalars)", () => {
  block.write(0, 0x1000n);
  block.write(1, 0x2000n);
  block.write(2, 0x3000n);
  block.write(3, 0x4000n);
  block.write(4, 1024);
  block.write(5, 1.5);
  block.write(6, 2.5);
  block.write(7, 3);
});

const dims = new Uint32Array(6);
const limits = {
  block: [1024, 1024, 64] as const,
  threadsPerBlock: 1024,
  grid: [2147483647, 65535, 65535] as const,
};

Deno.bench("readDim3() and checkLimits() validate a launch's grid and block", () => {
  readDim3([4096, 2], dims, 0, "grid", "k");
  readDim3([256], dims, 3, "block", "k");
  checkLimits(dims, limits, "H200", "k");
});

const call = fixedArity(8, 9, (values) => {
  for (let i = 0; i < 8; i++) block.write(i, values[i]);
});
const cfg = { block: 256 };

Deno.bench("a fixed-arity launch callable takes eight arguments and a config", () => {
  call(0x1000n, 0x2000n, 0x3000n, 0x4000n, 1024, 1.5, 2.5, 3, cfg);
});
