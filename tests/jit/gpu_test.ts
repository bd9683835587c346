import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import { grid, type HostArray, jit } from "../../src/jit/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { cudaProblem, openclProblem } from "../_backends.ts";
import type { Outputs } from "./kernel_case.ts";
import { KERNELS } from "./kernels.ts";

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
  const a = ga.zeros(4);
  // Before the first launch, and after launches that set up the kernel's own fast path.
  for (const value of [5, 6]) {
    assert.throws(() => k.launch({ grid: 1, block: 1 }, new Float32Array(4), 1), {
      name: "TypeError",
      message:
        /a must be a GPUArray or a device buffer \(a DeviceAllocation or an OpenCL Buffer\), not a Float32Array/,
    });
    assert.throws(() => k.launch({ grid: 1, block: 1 }, ga.zeros(4, "int32"), 1), {
      name: "TypeError",
      message: /a is an int32 array, declared float32/,
    });
    k.launch({ grid: 1, block: 1 }, a, value);
    assert.equal(a.get()[0], value);
  }
});

eachBackend(
  "jit kernel.launch() names its parameters for a wrong count, before and after its first launch",
  () => {
    const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
      a[0] = n;
    }, { name: "count_check" });
    const a = ga.zeros(2);
    const message =
      'Cannot launch kernel "count_check": it takes a launch config and then 2 arguments (a, n), got';
    for (const value of [3, 4]) {
      const launch = k.launch as (...values: unknown[]) => void;
      assert.throws(() => launch({ grid: 1, block: 1 }, a), { name: "TypeError", message: `${message} 1` });
      assert.throws(() => launch({ grid: 1, block: 1 }, a, 1, 2), {
        name: "TypeError",
        message: `${message} 3`,
      });
      k.launch({ grid: 1, block: 1 }, a, value);
      assert.equal(a.get()[0], value, "a launch with the right count runs");
    }
    a.free();
  },
);

eachBackend("jit kernel.launch() takes the backend's own buffers as well as arrays", () => {
  const k = jit({ a: "f32[]", b: "f32[]", n: "i32" }, (a, b, n) => {
    const i = grid(1);
    if (i < n) b[i] = a[i] * 2;
  }, { name: "own_buffers" });
  const a = ga.toGpu(new Float32Array([1, 2, 3, 4]));
  const b = ga.zeros(4);
  k.launch({ grid: 1, block: 4 }, a.buffer, b, 4);
  assert.deepEqual(Array.from(b.get() as Float32Array), [2, 4, 6, 8]);
  k.launch({ grid: 1, block: 4 }, b, a.buffer, 4); // buffers in either place, one launch after another
  assert.deepEqual(Array.from(a.get() as Float32Array), [4, 8, 12, 16]);
  a.free();
  assert.throws(() => k.launch({ grid: 1, block: 4 }, a, b, 4), /freed/);
  b.free();
});

const bothProblem = cudaProblem ?? openclProblem;
Deno.test({
  name: `jit kernel.launch() follows its arrays from one backend to the other, and refuses a mix${
    bothProblem === undefined
      ? ""
      : ` [ignored: needs CUDA and OpenCL: ${bothProblem.split("\n")[0]!.split(": no candidate")[0]}]`
  }`,
  ignore: bothProblem !== undefined,
  fn: () => {
    const k = jit({ a: "f32[]", b: "f32[]", n: "i32" }, (a, b, n) => {
      const i = grid(1);
      if (i < n) b[i] = a[i] + 1;
    }, { name: "two_backends" });
    const host = new Float32Array([1, 2, 3]);
    ga.useBackend("cuda");
    const ca = ga.toGpu(host), cb = ga.zeros(3);
    ga.useBackend("opencl");
    const oa = ga.toGpu(host), ob = ga.zeros(3);
    for (let round = 0; round < 2; round++) {
      k.launch({ grid: 1, block: 3 }, ca, cb, 3);
      k.launch({ grid: 1, block: 3 }, oa, ob, 3);
    }
    assert.deepEqual(Array.from(cb.get() as Float32Array), [2, 3, 4]);
    assert.deepEqual(Array.from(ob.get() as Float32Array), [2, 3, 4]);
    assert.throws(() => k.launch({ grid: 1, block: 3 }, ca, ob, 3), {
      name: "TypeError",
      message: /its arrays live on .* and /,
    });
    assert.throws(() => k.launch({ grid: 1, block: 3 }, oa, cb.buffer, 3), {
      name: "TypeError",
      message: /b is a DeviceAllocation of another backend than .*, where it runs/,
    });
    for (const x of [ca, cb, oa, ob]) x.free();
    ga.useBackend("cuda");
  },
});
