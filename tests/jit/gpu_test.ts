import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { type HostArray, jit } from "../../src/jit/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { KERNELS, type Outputs } from "./kernels.ts";

for (const c of KERNELS) {
  eachBackend(`jit kernel ${c.name} gives the host reference's results on the GPU`, () => {
    const args = c.makeArgs(7);
    const expected = c.reference(args);
    const device = args.map((a) => (typeof a === "number" ? a : ga.toGpu(a as HostArray)));
    c.kernel.launch(c.config(), ...device);
    const names = c.kernel.params.map((p) => p.name);
    const actual: Outputs = Object.fromEntries(
      c.outputs.map((name) => [name, (device[names.indexOf(name)] as ga.GPUArray).get() as HostArray]),
    );
    c.compare(actual, expected);
  });
}

eachBackend("jit kernel.launch() rejects host arrays and wrong dtypes with the parameter's name", () => {
  const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
    a[0] = n;
  }, { name: "reject_host" });
  assert.throws(() => k.launch({ grid: 1, block: 1 }, new Float32Array(4), 1), {
    name: "TypeError",
    message: /a must be a GPUArray or a device allocation, not a Float32Array/,
  });
  assert.throws(() => k.launch({ grid: 1, block: 1 }, ga.zeros(4, "int32"), 1), {
    name: "TypeError",
    message: /a is an int32 array, declared float32/,
  });
  const a = ga.zeros(4);
  k.launch({ grid: 1, block: 1 }, a, 5);
  assert.equal(a.get()[0], 5);
});
