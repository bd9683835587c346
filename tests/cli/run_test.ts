import assert from "node:assert/strict";
import { main } from "../../src/cli/main.ts";
import type { CliIO } from "../../src/cli/io.ts";
import { readNpy, writeNpy } from "../../src/kernel/npy.ts";
import type { RunReport } from "../../src/cli/run.ts";
import { openclTest as openclHere } from "../_backends.ts";
import { alone } from "../_alone.ts";
import { assertUsageExit, cudeno, tempDir } from "./_cli.ts";

// CUDENO_DEBUG is the process's (and its children's): other files' CLI runs would print stacks meanwhile.
const { test, openclTest } = alone(import.meta.url, "it sets CUDENO_DEBUG", {
  test: Deno.test,
  openclTest: openclHere,
});

function capture(): CliIO & { out_: string[]; err_: string[] } {
  const out_: string[] = [];
  const err_: string[] = [];
  return { out_, err_, out: (t) => out_.push(t), err: (t) => err_.push(t) };
}

async function runJson(args: string[]): Promise<RunReport> {
  const result = await cudeno(["run", ...args, "--json"]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test("cudeno run --list --json gives each parameter's C type as the .cu file writes it", async () => {
  const result = await cudeno(["run", "kernels/vector_add.cu", "--list", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), {
    kernels: [{
      name: "vector_add",
      params: [
        { name: "a", type: "const float *" },
        { name: "b", type: "const float *" },
        { name: "c", type: "float *" },
        { name: "n", type: "unsigned int" },
      ],
    }],
  });
});

test("cudeno run --list --json keeps OpenCL address spaces in the types", async () => {
  const io = capture();
  assert.equal(await main(["run", "kernels/saxpy.cl", "--list", "--json"], io), 0);
  assert.deepEqual(JSON.parse(io.out_.join("\n")).kernels[0].params, [
    { name: "n", type: "int" },
    { name: "a", type: "float" },
    { name: "x", type: "__global const float *" },
    { name: "y", type: "__global float *" },
  ]);
});

test("cudeno run --list prints a table of kernels and parameters, several kernels too", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/two.cu`;
  Deno.writeTextFileSync(
    file,
    "__global__ void first(const double *x, long long n) {}\n__global__ void second() {}\n",
  );
  const io = capture();
  assert.equal(await main(["run", file, "--list"], io), 0);
  assert.equal(
    io.out_.join("\n"),
    `${file}: 2 CUDA kernels\n\nfirst  (line 1)\n  x  const double *\n  n  long long\n\nsecond  (line 2)\n  no parameters`,
  );
});

openclTest("cudeno run takes the kernel and arguments from the file's // cudeno: line", async () => {
  const result = await cudeno(["run", "kernels/saxpy.cl"]);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^saxpy on opencl:\d+:\d+ \(.+\), global \[1048576\] local \[256\]$/);
  assert.equal(lines[1], "built by the OpenCL driver (which may keep its own cache; cudeno cannot tell)");
  assert.match(lines[2]!, /^kernel time [\d.e-]+ ms$/);
  assert.match(
    lines[3]!,
    /^y: float32 \[1048576\] {2}first [\d. ]+ \.\.\. {2}min [\d.e-]+ {2}max [\d.]+ {2}mean [\d.]+ {2}checksum [0-9a-f]{8}$/,
  );
  assert.equal(lines.length, 4, "x is const, so only y is summarized");
});

openclTest("cudeno run lets the command line override the defaults' arguments by name", async () => {
  const report = await runJson([
    "kernels/saxpy.cl",
    "--arg",
    "n=1000",
    "--arg",
    "a=0",
    "--arg",
    "y=full(n, 5)",
  ]);
  assert.equal(report.kernel, "saxpy");
  assert.deepEqual(report.launch, { backend: "opencl", global: [1024], local: [256] });
  const [y] = report.outputs;
  assert.deepEqual([y!.name, y!.dtype, y!.shape], ["y", "float32", [1000]]);
  assert.deepEqual([y!.summary.min, y!.summary.max], [5, 5], "a = 0 leaves y = 5");
});

openclTest("cudeno run --repeat reports the min and median kernel time from profiling events", async () => {
  const report = await runJson(["kernels/vector_add.cl", "--arg", "n=4096", "--repeat", "5"]);
  assert.equal(report.timeMs.runs, 5);
  assert.ok(report.timeMs.min >= 0 && report.timeMs.min <= report.timeMs.median);
  assert.ok(report.timeMs.median <= report.timeMs.max);
  assert.equal(report.compile, "driver");
  assert.match(report.device.id, /^opencl:\d+:\d+$/);
});

openclTest("cudeno run maps --grid/--block to OpenCL sizes and accepts --global/--local", async () => {
  const mapped = await runJson(["kernels/vector_add.cl", "--arg", "n=1000", "--grid", "8", "--block", "128"]);
  assert.deepEqual(mapped.launch, { backend: "opencl", global: [1024], local: [128] });
  const direct = await runJson([
    "kernels/vector_add.cl",
    "--arg",
    "n=1000",
    "--global",
    "n",
    "--device",
    "opencl:0:0",
  ]);
  assert.deepEqual(direct.launch, { backend: "opencl", global: [1000], local: null });
  assert.equal(direct.device.id, "opencl:0:0");
  assert.equal(direct.outputs[0]!.summary.nans, 0);
});

openclTest("cudeno run reads @file.npy, keeps its shape, and --shape reshapes an output", async () => {
  using tmp = tempDir();
  const input = `${tmp.path}/a.npy`;
  Deno.writeFileSync(input, writeNpy(Float32Array.from({ length: 12 }, (_, i) => i), [3, 4]));
  const args = ["kernels/vector_add.cl", "--arg", "n=12", "--arg", `a=@${input}`, "--arg", "b=ones(n)"];
  await runJson([
    ...args,
    "--out",
    `a=${tmp.path}/a_out.npy`,
    "--out",
    `c=${tmp.path}/c.npy`,
    "--shape",
    "c=2,6",
  ]);
  const a = readNpy(Deno.readFileSync(`${tmp.path}/a_out.npy`));
  assert.deepEqual(a.shape, [3, 4], "an input written with --out keeps the shape it was read with");
  const c = readNpy(Deno.readFileSync(`${tmp.path}/c.npy`));
  assert.deepEqual([c.dtype, c.shape], ["float32", [2, 6]]);
  assert.deepEqual(Array.from(c.data as Float32Array), Array.from({ length: 12 }, (_, i) => i + 1));
});

openclTest(
  "cudeno run passes a __local parameter its size in elements and writes integer outputs",
  async () => {
    using tmp = tempDir();
    const file = `${tmp.path}/groups.cl`;
    Deno.writeTextFileSync(
      file,
      `// cudeno: --arg n=256 --arg x=arange(n) --arg sums=zeros(n/64) --arg tmp=64 --global n --local 64
__kernel void group_sum(__global const int *x, __global long *sums, __local int *tmp, int n) {
  int l = get_local_id(0);
  tmp[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) { long s = 0; for (int i = 0; i < get_local_size(0); i++) s += tmp[i]; sums[get_group_id(0)] = s; }
}
`,
    );
    const out = `${tmp.path}/sums.npy`;
    const report = await runJson([file, "--out", `sums=${out}`]);
    assert.deepEqual(report.launch, { backend: "opencl", global: [256], local: [64] });
    const sums = readNpy(Deno.readFileSync(out));
    assert.equal(sums.dtype, "int64");
    const expected = [0, 1, 2, 3].map((g) => BigInt(64 * 64 * g + (63 * 64) / 2));
    assert.deepEqual(Array.from(sums.data as BigInt64Array), expected);
  },
);

openclTest("cudeno run --seed changes rand's numbers, and the same seed repeats them", async () => {
  const checksum = async (seed: string) =>
    (await runJson(["kernels/saxpy.cl", "--arg", "n=64", "--seed", seed])).outputs[0]!.summary.checksum;
  const [a, b, c] = [await checksum("1"), await checksum("1"), await checksum("2")];
  assert.equal(a, b);
  assert.notEqual(a, c);
});

test("cudeno with no command prints its usage and exits 2; --help exits 0", async () => {
  const none = await cudeno([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^cudeno: run CUDA and OpenCL kernels/);
  for (const args of [["--help"], ["run", "--help"], ["info", "--help"], ["types", "--help"]]) {
    const io = capture();
    assert.equal(await main(args, io), 0);
    assert.match(io.out_.join("\n"), /Usage:/);
  }
  const unknown = capture();
  assert.equal(await main(["frobnicate"], unknown), 2);
  assert.deepEqual(unknown.err_, [
    "cudeno: Cannot run cudeno frobnicate: there is no such command; use info, run or types (see cudeno --help)",
  ]);
});

test("cudeno run rejects a second file on the command line", async () => {
  assertUsageExit(
    await cudeno(["run", "kernels/saxpy.cl", "kernels/saxpy.cu"]),
    /^cudeno: Cannot parse the command line: cudeno run takes one kernel file \(\.cu or \.cl\), got 2/,
  );
});

test("cudeno reports an internal error in one line, and its stack only with CUDENO_DEBUG=1", async () => {
  const failing = (): CliIO & { err_: string[] } => {
    const err_: string[] = [];
    return {
      err_,
      out: () => {
        throw new Error("the output broke");
      },
      err: (t) => err_.push(t),
    };
  };
  const plain = failing();
  assert.equal(await main(["run", "kernels/saxpy.cl", "--list"], plain), 1);
  assert.deepEqual(plain.err_, [
    "cudeno: internal error: the output broke (set CUDENO_DEBUG=1 to see where it happened)",
  ]);
  Deno.env.set("CUDENO_DEBUG", "1");
  try {
    const debug = failing();
    assert.equal(await main(["run", "kernels/saxpy.cl", "--list"], debug), 1);
    assert.match(debug.err_[0]!, /^cudeno: internal error: Error: the output broke\n\s+at /);
  } finally {
    Deno.env.delete("CUDENO_DEBUG");
  }
});

openclTest("cudeno run passes a vector parameter from a list of values, v=X,Y,Z", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/spread.cl`;
  Deno.writeTextFileSync(
    file,
    `__kernel void spread(__global float *out, float3 v, int2 i, int n) {
  int k = get_global_id(0);
  if (k < n) out[k] = k % 3 == 0 ? v.x : k % 3 == 1 ? v.y : v.z + i.x * i.y;
}
`,
  );
  const result = await cudeno([
    "run",
    file,
    "--arg",
    "n=6",
    "--arg",
    "v=0.5,n/4,-2",
    "--arg",
    "i=3,-1",
    "--arg",
    "out=zeros(n)",
    "--out",
    `out=${tmp.path}/out.npy`,
  ]);
  assert.equal(result.code, 0, result.stderr);
  const { data } = readNpy(Deno.readFileSync(`${tmp.path}/out.npy`));
  assert.deepEqual([...data as Float32Array], [0.5, 1.5, -5, 0.5, 1.5, -5]);
});

test("cudeno run says how many values a vector takes, and rejects an array for one", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/v.cl`;
  Deno.writeTextFileSync(file, "__kernel void f(__global float *out, float4 v) {}\n");
  assertUsageExit(
    await cudeno(["run", file, "--arg", "out=zeros(4)", "--arg", "v=1,2,3"]),
    /^cudeno: Cannot use v=1,2,3: parameter v is float4, which takes 4 values, as v=1,2,3,4; got 3$/,
  );
  assertUsageExit(
    await cudeno(["run", file, "--arg", "out=zeros(4)", "--arg", "v=rand(4)"]),
    /parameter v is float4, a vector of 4 values, but rand\(\.\.\.\) makes an array; give its values as v=1,2,3,4$/,
  );
  assertUsageExit(
    await cudeno(["run", file, "--arg", "out=zeros(4)"]),
    /no value for v \(float4\); give it with --arg, e\.g\. --arg v=1\.5,1\.5,1\.5,1\.5$/,
  );
});
