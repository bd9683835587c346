import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import { EDGE_CASES } from "./edge_cases.ts";
import { KERNELS } from "./kernels.ts";

function openclContext(): cl.Context | undefined {
  try {
    return cl.getPlatforms().length > 0 ? cl.createSomeContext() : undefined;
  } catch {
    return undefined;
  }
}

const context = openclContext();

Deno.test({
  name: "every kernel's generated OpenCL C builds on the OpenCL device (PoCL here)",
  ignore: context === undefined,
  fn() {
    for (const { kernel } of [...KERNELS, ...EDGE_CASES]) {
      const program = new cl.Program(context!, kernel.source("opencl")).build();
      assert.equal(program.getKernel(kernel.name).params.length, kernel.params.length, kernel.name);
    }
  },
});
