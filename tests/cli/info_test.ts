import assert from "node:assert/strict";
import { collectInfo, formatInfo, type InfoReport } from "../../src/cli/info.ts";
import { cudaProblem, cudaTest, openclTest } from "../_backends.ts";
import { cudeno, ROOT } from "./_cli.ts";

openclTest(
  "cudeno info --json lists the OpenCL platforms and devices with numbers for byte counts",
  async () => {
    const result = await cudeno(["info", "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const report: InfoReport = JSON.parse(result.stdout);
    assert.equal(report.opencl.available, true);
    const platform = report.opencl.platforms[0]!;
    assert.match(platform.id, /^opencl:\d+$/);
    assert.ok(platform.name.length > 0 && platform.version.startsWith("OpenCL"));
    const device = platform.devices[0]!;
    assert.match(device.id, /^opencl:\d+:\d+$/);
    assert.ok(["gpu", "cpu", "accelerator", "custom", "default"].includes(device.type));
    assert.ok(typeof device.globalMemory === "number" && device.globalMemory > 0);
    assert.ok(typeof device.localMemory === "number" && device.localMemory > 0);
    assert.ok(device.computeUnits >= 1 && device.maxWorkGroupSize >= 1);
    assert.ok(Array.isArray(device.extensions));
    if (cudaProblem !== undefined) {
      assert.equal(report.cuda.available, false);
      assert.equal(
        report.best?.backend,
        "opencl",
        "without CUDA, cudeno uses the OpenCL device chooseDevice() picks",
      );
    }
  },
);

openclTest("cudeno info prints both backends and the device cudeno would use", () => {
  const report = collectInfo();
  const text = formatInfo(report);
  assert.match(text, /^OpenCL$/m);
  assert.match(text, /^ {4}opencl:\d+:\d+ {2}.+ \((gpu|cpu|accelerator|custom|default)\)$/m);
  assert.match(text, /^ +global memory +[\d.]+ [KMG]iB \(largest buffer /m);
  assert.match(text, new RegExp(`^cudeno would use: ${report.best!.id} `, "m"));
  if (cudaProblem !== undefined) assert.match(text, /^CUDA: not usable: /m);
});

Deno.test({
  name: "cudeno info --require cuda exits 1 with the reason and the paths tried where there is no CUDA",
  ignore: cudaProblem === undefined,
  fn: async () => {
    const result = await cudeno(["info", "--require", "cuda"]);
    assert.equal(result.code, 1);
    const lines = result.stderr.trimEnd().split("\n");
    assert.match(lines[0]!, /^cudeno: CUDA is required \(--require cuda\) but not usable here: \S/);
    assert.doesNotMatch(result.stderr, /^\s+at /m);
    if (/Cannot load/.test(lines[0]!)) assert.match(lines[1]!, /^ {2}tried \S*libcuda\S*: /);
  },
});

Deno.test("cudeno info --require opencl exits 1, naming the library tried, where OpenCL does not load", async () => {
  const result = await cudeno(["info", "--require", "opencl"], {
    env: { CUDENO_LIBOPENCL: "/nonexistent/libOpenCL.so.1" },
  });
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^OpenCL: not usable: Cannot load the OpenCL ICD loader/m);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2);
  assert.match(lines[1]!, /^ {2}tried \/nonexistent\/libOpenCL\.so\.1: \S/);
  assert.match(
    result.stderr,
    /^cudeno: OpenCL is required \(--require opencl\) but not usable here: Cannot load/,
  );
  assert.doesNotMatch(result.stderr, /^\s+at /m);
});

openclTest("deno task info --require opencl runs the same report with the task's permissions", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "info", "--json", "--require", "opencl"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const report: InfoReport = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.equal(report.opencl.available, true);
});

Deno.test("cudeno info rejects a --require of neither backend", async () => {
  const result = await cudeno(["info", "--require", "metal"]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    "cudeno: Cannot use --require metal: give --require cuda or --require opencl\n",
  );
});

cudaTest("cudeno info --require cuda reports each CUDA device's memory, limits and identity", async () => {
  const result = await cudeno(["info", "--json", "--require", "cuda"]);
  assert.equal(result.code, 0, result.stderr);
  const report: InfoReport = JSON.parse(result.stdout);
  assert.equal(report.cuda.available, true);
  assert.match(report.cuda.driverVersion!, /^\d+\.\d+$/);
  assert.ok("version" in report.cuda.nvrtc, "NVRTC loads");
  const d = report.cuda.devices[0]!;
  assert.equal(d.id, "cuda:0");
  assert.match(d.computeCapability, /^\d+\.\d+$/);
  assert.ok(d.totalMemory > 0 && d.freeMemory !== null && d.freeMemory <= d.totalMemory);
  assert.match(d.pciBusId, /^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.\d$/i);
  assert.match(d.uuid, /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.ok(d.attributes.multiprocessorCount > 0 && d.attributes.warpSize === 32);
  assert.ok(d.attributes.maxThreadsPerBlock >= 1024);
  assert.deepEqual(report.best, { backend: "cuda", id: "cuda:0", name: d.name });
  const text = await cudeno(["info"]);
  assert.match(text.stdout, /^CUDA: driver \d+\.\d+$/m);
  assert.match(text.stdout, /^ {2}cuda:0 {2}.+, compute capability \d+\.\d+$/m);
  assert.match(text.stdout, /^ +multiprocessors +\d+ /m);
});
