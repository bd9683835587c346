import assert from "node:assert/strict";
import { generateTypes } from "../../src/cli/types.ts";
import { readKernelFile } from "../../src/cli/kernel_file.ts";
import * as cl from "../../src/opencl/mod.ts";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaTest, openclTest } from "../_backends.ts";
import { cudeno, ROOT, tempDir } from "./_cli.ts";

const CUDA_MOD = new URL("../../src/cuda/mod.ts", import.meta.url).href;
const OPENCL_MOD = new URL("../../src/opencl/mod.ts", import.meta.url).href;

async function check(dir: string, file: string): Promise<{ code: number; output: string }> {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", file],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: result.code, output: decoder.decode(result.stdout) + decoder.decode(result.stderr) };
}

async function generate(dir: string, kernelFile: string, spec: string, out: string): Promise<void> {
  const result = await cudeno(["types", kernelFile, "-o", `${dir}/${out}`, "--import", spec]);
  assert.equal(result.code, 0, result.stderr);
}

Deno.test("cudeno types writes CUDA launchers that deno check accepts when called right and rejects otherwise", async () => {
  using tmp = tempDir();
  await generate(tmp.path, "kernels/saxpy.cu", CUDA_MOD, "saxpy_kernels.ts");
  Deno.writeTextFileSync(
    `${tmp.path}/good.ts`,
    `import * as cuda from "${CUDA_MOD}";
import { kernels } from "./saxpy_kernels.ts";
export function use(mod: cuda.Module, x: cuda.DeviceAllocation, y: cuda.DeviceAllocation, host: Float32Array): void {
  const { saxpy } = kernels(mod);
  saxpy(1024, 2.5, x, y, { grid: 4, block: 256 });
  saxpy(1024, 2.5, cuda.In(host), 0n, { block: [256, 1, 1] });
}
`,
  );
  Deno.writeTextFileSync(
    `${tmp.path}/bad.ts`,
    `import type * as cuda from "${CUDA_MOD}";
import { kernels } from "./saxpy_kernels.ts";
export function use(mod: cuda.Module, x: cuda.DeviceAllocation): void {
  const { saxpy } = kernels(mod);
  saxpy(1024, x, x, { block: 256 });
  saxpy("1024", 2.5, x, x, { block: 256 });
  saxpy(1024, 2.5, x, 3, { block: 256 });
  saxpy(1024, 2.5, x, x);
}
`,
  );
  const good = await check(tmp.path, "good.ts");
  assert.equal(good.code, 0, good.output);
  const bad = await check(tmp.path, "bad.ts");
  assert.notEqual(bad.code, 0);
  assert.match(bad.output, /TS2554 \[ERROR\]: Expected 5 arguments, but got 4[\s\S]*bad\.ts:5:/);
  assert.match(
    bad.output,
    /TS2345 \[ERROR\]: Argument of type 'string' is not assignable to parameter of type 'number'[\s\S]*bad\.ts:6:/,
  );
  assert.match(
    bad.output,
    // TypeScript prints a union's members in the order it first met their types: either order is right.
    /TS2345 \[ERROR\]: Argument of type 'number' is not assignable to parameter of type '(DeviceTarget \| HostArgument|HostArgument \| DeviceTarget)'[\s\S]*bad\.ts:7:/,
  );
  assert.match(bad.output, /bad\.ts:8:/);
  assert.match(bad.output, /Found 4 errors/);
});

Deno.test("cudeno types writes OpenCL launchers taking the queue and sizes first, and LocalMemory for __local", async () => {
  using tmp = tempDir();
  const source = `${tmp.path}/scan.cl`;
  Deno.writeTextFileSync(
    source,
    "__kernel void scan(__global const float *x, __local float *tmp, __constant int *table, ulong n, char c) {}\n",
  );
  await generate(tmp.path, source, OPENCL_MOD, "scan_kernels.ts");
  Deno.writeTextFileSync(
    `${tmp.path}/good.ts`,
    `import * as cl from "${OPENCL_MOD}";
import { kernels } from "./scan_kernels.ts";
export function use(program: cl.Program, queue: cl.CommandQueue, x: cl.Buffer): cl.Event {
  const { scan } = kernels(program);
  scan(queue, [64, 4], null, x, new cl.LocalMemory(256), x, 10n, 1);
  return scan(queue, 64, 16, x, new cl.LocalMemory(256), x, 10, -1);
}
`,
  );
  Deno.writeTextFileSync(
    `${tmp.path}/bad.ts`,
    `import * as cl from "${OPENCL_MOD}";
import { kernels } from "./scan_kernels.ts";
export function use(program: cl.Program, queue: cl.CommandQueue, x: cl.Buffer): void {
  const { scan } = kernels(program);
  scan(queue, 64, null, x, x, x, 10, 1);
  scan(queue, [1, 2, 3, 4], null, x, new cl.LocalMemory(256), x, 10, 1);
  scan(64, null, x, new cl.LocalMemory(256), x, 10, 1);
}
`,
  );
  const good = await check(tmp.path, "good.ts");
  assert.equal(good.code, 0, good.output);
  const bad = await check(tmp.path, "bad.ts");
  assert.notEqual(bad.code, 0);
  assert.match(
    bad.output,
    /Argument of type 'Buffer' is not assignable to parameter of type 'Local'[\s\S]*bad\.ts:5:/,
  );
  assert.match(bad.output, /bad\.ts:6:/);
  assert.match(bad.output, /bad\.ts:7:/);
  assert.match(bad.output, /Found 3 errors/);
});

Deno.test("cudeno types types a vector parameter as a tuple of its length or its element's typed array", async () => {
  using tmp = tempDir();
  const source = `${tmp.path}/vec.cu`;
  Deno.writeTextFileSync(
    source,
    "__global__ void set_them(float3 *dest, float3 x, int2 i, longlong2 l) {}\n",
  );
  await generate(tmp.path, source, CUDA_MOD, "vec_kernels.ts");
  Deno.writeTextFileSync(
    `${tmp.path}/good.ts`,
    `import type * as cuda from "${CUDA_MOD}";
import { kernels } from "./vec_kernels.ts";
export function use(mod: cuda.Module, dest: cuda.DeviceAllocation): void {
  const { set_them } = kernels(mod);
  set_them(dest, [1, 2, 3], Int32Array.of(1, 2), [1n, 2], { block: 32 });
  set_them(dest, Float32Array.of(1, 2, 3), [1, 2], BigInt64Array.of(1n, 2n), { block: 32 });
}
`,
  );
  Deno.writeTextFileSync(
    `${tmp.path}/bad.ts`,
    `import type * as cuda from "${CUDA_MOD}";
import { kernels } from "./vec_kernels.ts";
export function use(mod: cuda.Module, dest: cuda.DeviceAllocation): void {
  const { set_them } = kernels(mod);
  set_them(dest, [1, 2], [1, 2], [1, 2], { block: 32 });
  set_them(dest, 1.5, [1, 2], [1, 2], { block: 32 });
  set_them(dest, Float64Array.of(1, 2, 3), [1, 2], [1, 2], { block: 32 });
}
`,
  );
  const good = await check(tmp.path, "good.ts");
  assert.equal(good.code, 0, good.output);
  const bad = await check(tmp.path, "bad.ts");
  assert.notEqual(bad.code, 0);
  for (const line of [5, 6, 7]) assert.match(bad.output, new RegExp(`bad\\.ts:${line}:`));
  assert.match(bad.output, /Found 3 errors/);
});

openclTest("the generated OpenCL launchers run a kernel file's kernels for real", async () => {
  using tmp = tempDir();
  await generate(tmp.path, "kernels/saxpy.cl", OPENCL_MOD, "saxpy_kernels.ts");
  const { kernels } = await import(`file://${tmp.path}/saxpy_kernels.ts`);
  const context = cl.createSomeContext();
  const queue = new cl.CommandQueue(context);
  const program = new cl.Program(context, Deno.readTextFileSync(`${ROOT}kernels/saxpy.cl`)).build();
  const x = Float32Array.from({ length: 100 }, (_, i) => i);
  const y = new Float32Array(100).fill(1);
  const xBuf = new cl.Buffer(context, x.byteLength);
  const yBuf = new cl.Buffer(context, y.byteLength);
  cl.enqueueCopy(queue, xBuf, x);
  cl.enqueueCopy(queue, yBuf, y);
  await kernels(program).saxpy(queue, [128], [64], 100, 2, xBuf, yBuf).completed();
  cl.enqueueCopy(queue, y, yBuf);
  assert.deepEqual(Array.from(y), Array.from(x, (v) => 2 * v + 1));
  for (const o of [xBuf, yBuf, program, queue, context]) o instanceof cl.Buffer ? o.free() : o.release();
});

Deno.test("cudeno types imports the published package of deno.json's version by default", async () => {
  const { version } = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  const result = await cudeno(["types", "kernels/matmul.cu"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    new RegExp(`^import type \\* as cuda from "jsr:@cudeno/cudeno@\\^${version}/cuda";$`, "m"),
  );
  assert.match(result.stdout, /export function kernels\(mod: cuda\.Module\): Kernels \{/);
  const cl = generateTypes(readKernelFile(`${ROOT}kernels/heat.cl`));
  assert.match(cl.code, new RegExp(`from "jsr:@cudeno/cudeno@\\^${version}/opencl";`));
  assert.match(cl.code, /export function kernels\(program: cl\.Program\): Kernels \{/);
});

Deno.test("cudeno types leaves out templates and by-value types it cannot pass, saying why", async () => {
  using tmp = tempDir();
  const source = `${tmp.path}/mixed.cu`;
  Deno.writeTextFileSync(
    source,
    "template <typename T> __global__ void t(T *x) {}\nstruct pair { int a, b; };\n__global__ void v(pair f) {}\n__global__ void ok(double *in, bool flag, long long n) {}\n",
  );
  const result = await cudeno(["types", source]);
  assert.equal(result.code, 0);
  assert.equal(
    result.stderr,
    "cudeno: left out t (line 1): it is a template; type an instantiation by hand\n" +
      "cudeno: left out v (line 3): parameter f is pair by value, which cudeno cannot pass\n",
  );
  assert.match(result.stdout, /^\/\/ Left out: t \(line 1\): it is a template/m);
  assert.match(
    result.stdout,
    /readonly ok: \(\n {4}in_: cuda\.DeviceTarget \| cuda\.HostArgument,\n {4}flag: boolean \| 0 \| 1,\n {4}n: number \| bigint,\n {4}config: cuda\.LaunchConfig,\n {2}\) => void;/,
  );
  assert.match(result.stdout, /const \{ ok \} = kernels\(new cuda\.SourceModule/);
});

Deno.test("cudeno types rejects a file without kernels and a missing output folder", async () => {
  using tmp = tempDir();
  const empty = `${tmp.path}/empty.cl`;
  Deno.writeTextFileSync(empty, "// nothing here\n");
  const none = await cudeno(["types", empty]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^cudeno: Cannot write types for .*empty\.cl: it declares no kernels\n$/);
  const folder = await cudeno(["types", "kernels/saxpy.cl", "-o", `${tmp.path}/no/such/out.ts`]);
  assert.equal(folder.code, 2);
  assert.match(folder.stderr, /its folder does not exist/);
});

cudaTest("the generated CUDA launchers run a kernel file's kernels for real", async () => {
  using tmp = tempDir();
  await generate(tmp.path, "kernels/saxpy.cu", CUDA_MOD, "saxpy_kernels.ts");
  const { kernels } = await import(`file://${tmp.path}/saxpy_kernels.ts`);
  cuda.useDevice(0);
  const mod = new cuda.SourceModule(Deno.readTextFileSync(`${ROOT}kernels/saxpy.cu`));
  const x = Float32Array.from({ length: 100 }, (_, i) => i);
  const y = new Float32Array(100).fill(1);
  using xBuf = cuda.memAlloc(x.byteLength);
  using yBuf = cuda.memAlloc(y.byteLength);
  cuda.memcpyHtoD(xBuf, x);
  cuda.memcpyHtoD(yBuf, y);
  kernels(mod).saxpy(100, 2, xBuf, yBuf, { grid: 1, block: 128 });
  cuda.memcpyDtoH(y, yBuf);
  assert.deepEqual(Array.from(y), Array.from(x, (v) => 2 * v + 1));
  mod.unload();
});
