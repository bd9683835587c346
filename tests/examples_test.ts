import assert from "node:assert/strict";
import * as cl from "../src/opencl/mod.ts";
import * as nn from "../src/nn/mod.ts";
import { cudaProblem, cudaTest, openclProblem, openclTest } from "./_backends.ts";

async function runExample(name: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(`../examples/${name}`, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${name} failed:\n${text}`);
  return text;
}

cudaTest("examples/pycuda_add.ts adds two 4×4 matrices on the GPU", async () => {
  assert.match(await runExample("pycuda_add.ts"), /all 16 sums right/);
});

cudaTest("examples/vector_add.ts adds 1,000,000 elements and checks them", async () => {
  assert.match(await runExample("vector_add.ts"), /3907 blocks × 256 threads, 1000000 elements, 0 wrong/);
});

cudaTest("examples/device_info.ts prints the device's attributes", async () => {
  assert.match(await runExample("device_info.ts"), /compute capability \d+\.\d+.*\n.*maxThreadsPerBlock/);
});

cudaTest(
  "examples/heat_graph.ts steps the heat equation eagerly and as a replayed graph, bit for bit alike",
  async () => {
    const text = await runExample("heat_graph.ts");
    assert.match(text, /eager: 1000 launches in [\d.]+ ms/);
    assert.match(text, /graph: 10 replays of a 100-step graph in [\d.]+ ms/);
    assert.match(text, /results equal bit for bit; largest difference from a float64 reference/);
  },
);

openclTest(
  "examples/opencl_heat_graph.ts steps the heat equation eagerly and as a command buffer, bit for bit alike",
  async () => {
    const text = await runExample("opencl_heat_graph.ts");
    const devices = cl.getPlatforms().flatMap((p) => p.getDevices());
    if (!devices.some((d) => cl.CommandBuffer.isSupported(d))) {
      assert.match(text, /no OpenCL device here records command buffers/);
      return;
    }
    assert.match(text, /eager: 1000 launches in [\d.]+ ms/);
    assert.match(text, /command buffer: 10 launches of 100 recorded steps in [\d.]+ ms/);
    assert.match(text, /results equal bit for bit; largest difference from a float64 reference/);
  },
);

openclTest("examples/opencl_vector_add.ts adds 1,000,000 elements on OpenCL", async () => {
  assert.match(await runExample("opencl_vector_add.ts"), /1000000 elements in .* µs, 0 wrong/);
});

openclTest("examples/opencl_devices.ts lists the OpenCL platforms and devices", async () => {
  assert.match(await runExample("opencl_devices.ts"), /opencl:0:0 .*compute units/);
});

const anyBackend = cudaProblem === undefined || openclProblem === undefined;
Deno.test({
  name: `examples/matmul.ts multiplies two random 1000×1000 matrices on the best device${
    anyBackend ? "" : " [ignored: no CUDA and no OpenCL]"
  }`,
  ignore: !anyBackend,
  fn: async () => {
    const text = await runExample("matmul.ts");
    assert.match(text, /matmul of two 1000×1000 float32 matrices on (cuda|opencl):/);
    assert.match(text, /check: c\[0, 0\] = /);
  },
});

Deno.test({
  name: `examples/jit_add.ts runs Numba's vector add written in TypeScript${
    anyBackend ? "" : " [ignored: no CUDA and no OpenCL]"
  }`,
  ignore: !anyBackend,
  fn: async () => {
    assert.match(await runExample("jit_add.ts"), /jit add on (cuda|opencl):.* 1048576 elements, 0 wrong/);
  },
});

Deno.test({
  name: `examples/fuse.ts fuses array functions into one kernel each and matches their eager results${
    anyBackend ? "" : " [ignored: no CUDA and no OpenCL]"
  }`,
  ignore: !anyBackend,
  fn: async () => {
    const text = await runExample("fuse.ts");
    assert.match(text, /fused functions on (cuda|opencl):/);
    assert.match(text, /step, loss and rownorm: fused results within \S+ of the eager ones/);
    assert.match(text, /rownorm: eager [\d.]+ ms, fused [\d.]+ ms per call/);
    assert.match(text, /(__global__|__kernel) void cudeno_fuse_rownorm_rows\(/);
  },
});

openclTest(
  "examples/linear_regression.ts fits a line by gradient descent to the least-squares solution",
  async () => {
    assert.match(
      await runExample("linear_regression.ts"),
      /largest difference from the least-squares solution: /,
    );
  },
);

/** The first and last loss a training example printed (`... loss 2.3030 → 0.3130`). */
function losses(text: string): [number, number] {
  const m = text.match(/loss ([\d.]+) → ([\d.]+)/);
  assert.ok(m !== null, `no "loss A → B" line in:\n${text}`);
  return [Number(m[1]), Number(m[2])];
}

for (
  const [name, args, mode] of [["mnist_mlp.ts", ["--steps", "20", "--batch", "64", "--eager"], "eager"], [
    "mnist_cnn.ts",
    ["--steps", "4", "--batch", "16"],
    "compiled",
  ]] as const
) {
  Deno.test({
    name: `examples/${name} trains on the MNIST digits for a few ${mode} steps, the loss falling${
      anyBackend ? "" : " [ignored: no CUDA and no OpenCL]"
    }`,
    ignore: !anyBackend,
    fn: async () => {
      const text = await runExample(name, "--epochs", "1", ...args);
      assert.match(text, /8576 training digits, 1424 held out, on (cuda|opencl)/);
      assert.match(text, /epoch 1\/1 .* samples\/s {2}held-out accuracy [\d.]+%/);
      assert.match(text, new RegExp(`\\d+ ${mode} steps in`));
      const [first, last] = losses(text);
      assert.ok(last < first, `the loss went from ${first} to ${last}`);
    },
  });
}

Deno.test({
  name:
    `examples/char_gpt.ts trains a one-layer GPT on the package's own text, the loss falling, samples and saves${
      anyBackend ? "" : " [ignored: no CUDA and no OpenCL]"
    }`,
  ignore: !anyBackend,
  fn: async () => {
    const out = await Deno.makeTempFile({ suffix: ".safetensors" });
    try {
      const tiny = ["--layers", "1", "--heads", "2", "--width", "32", "--context", "16", "--batch", "16"];
      const text = await runExample("char_gpt.ts", ...tiny, "--steps", "60", "--sample", "20", "--out", out);
      assert.match(
        text,
        /char GPT on (cuda|opencl).*: 1 layers, 2 heads, width 32, context 16, 0\.02M parameters/,
      );
      const [first, last] = losses(text);
      assert.ok(last < first, `the loss went from ${first} to ${last}`);
      assert.match(text, /held-out loss \d/);
      assert.match(text, /sample:\n.+/);
      assert.match(text, /saved 17 tensors to /);
      const saved = nn.loadSafetensors(out);
      assert.deepEqual(saved["blocks.0.attn.weight"]!.shape, [96, 32]);
    } finally {
      await Deno.remove(out);
    }
  },
});
