import assert from "node:assert/strict";
import { outputsOf } from "./kernel_case.ts";
import { KERNELS } from "./kernels.ts";

for (const c of KERNELS) {
  Deno.test(`the simulated ${c.name} kernel matches its host reference`, () => {
    for (const seed of [1, 2]) {
      const args = c.makeArgs(seed);
      const expected = c.reference(args);
      c.kernel.simulate(c.config(), ...args);
      c.compare(outputsOf(c, args), expected);
    }
  });

  Deno.test(`the ${c.name} kernel generates CUDA C and OpenCL C with a plain C parameter list`, () => {
    const cuda = c.kernel.source("cuda");
    const opencl = c.kernel.source("opencl");
    const cudaParams = c.kernel.params.map((p) => (p.array ? `${p.type}${p.name}` : `${p.type} ${p.name}`));
    assert.ok(cuda.includes(`extern "C" __global__ void ${c.name}(${cudaParams.join(", ")})`), cuda);
    const openclParams = c.kernel.params.map((
      p,
    ) => (p.array ? `__global ${clType(p.type)}${p.name}` : `${clType(p.type)} ${p.name}`));
    assert.ok(opencl.includes(`__kernel void ${c.name}(${openclParams.join(", ")})`), opencl);
  });
}

function clType(cuda: string): string {
  return cuda.replace("unsigned int", "uint").replace("unsigned char", "uchar");
}

Deno.test("every kernel case produces outputs that differ from their zeroed start", () => {
  for (const c of KERNELS) {
    const args = c.makeArgs(3);
    const expected = c.reference(args);
    for (const [name, values] of Object.entries(expected)) {
      assert.ok(values.some((v) => v !== 0), `${c.name}.${name} is all zeros`);
    }
  }
});

Deno.test("a kernel case's comparison rejects a result outside its tolerance", () => {
  const c = KERNELS.find((k) => k.name === "saxpy")!;
  const args = c.makeArgs(4);
  const expected = c.reference(args);
  const wrong = Object.fromEntries(
    Object.entries(expected).map(([k, v]) => [k, v.map((x, i) => (i === 7 ? x + 1 : x))]),
  );
  assert.throws(() => c.compare(wrong, expected), /y\[7\]/);
});
