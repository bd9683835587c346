import assert from "node:assert/strict";
import {
  blockDim,
  blockIdx,
  grid,
  gridDim,
  i32,
  jit,
  JitSimulationError,
  type LaunchConfig,
  shared,
  syncthreads,
  threadIdx,
} from "../../src/jit/mod.ts";
import { alone } from "../_alone.ts";

// CUDENO_JIT_SIMULATE is the process's: while one test sets it, other files' Workers would make
// simulated kernels.
const { test } = alone(import.meta.url, "it sets CUDENO_JIT_SIMULATE", { test: Deno.test });

test("simulate() gives every thread its indices in a 3-D grid of 3-D blocks", () => {
  const k = jit({ out: "i32[]" }, (out) => {
    const [x, y, z] = grid(3);
    const width = blockDim.x * gridDim.x, height = blockDim.y * gridDim.y;
    out[(z * height + y) * width + x] = x + 100 * y + 10000 * z;
  });
  const out = new Int32Array(4 * 6 * 2);
  k.simulate({ grid: [2, 3, 1], block: [2, 2, 2] }, out);
  const expected = Int32Array.from(
    { length: out.length },
    (_, i) => (i % 4) + 100 * (Math.floor(i / 4) % 6) + 10000 * Math.floor(i / 24),
  );
  assert.deepEqual(out, expected);
});

test("simulate() gives each block its own shared memory", () => {
  const k = jit({ out: "i32[]" }, (out) => {
    const slot = shared.array("i32", 1);
    if (threadIdx.x === 0) slot[0] = blockIdx.x;
    syncthreads();
    out[grid(1)] = slot[0];
  });
  const out = new Int32Array(12);
  k.simulate({ grid: 3, block: 4 }, out);
  assert.deepEqual(Array.from(out), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
});

test("simulate() makes syncthreads() a barrier inside loops and branches", () => {
  // Each round, every thread reads its neighbour's value and only then overwrites its own: without
  // a real barrier between the read and the write, threads would read values of the same round.
  const k = jit({ out: "i32[]", rounds: "i32" }, (out, rounds) => {
    const ring = shared.array("i32", 32);
    const t = threadIdx.x;
    ring[t] = t;
    syncthreads();
    let r = 0;
    while (r < rounds) {
      if (blockDim.x > 1) {
        const next = ring[(t + 1) % blockDim.x];
        syncthreads();
        ring[t] = next;
        syncthreads();
      }
      r++;
    }
    out[t] = ring[t];
  });
  const out = new Int32Array(32);
  k.simulate({ grid: 1, block: 32 }, out, 5);
  assert.deepEqual(Array.from(out), Array.from({ length: 32 }, (_, t) => (t + 5) % 32));
});

/** The line of this file it is called on (the stack's positions are those of the TypeScript as written). */
function line(): number {
  return Number(/:(\d+):\d+\)?$/.exec(new Error().stack!.split("\n")[2]!)![1]);
}

test("simulate() reports a thread that exits while others wait at syncthreads(), at its line in the file", () => {
  const start = line();
  const k = jit({ out: "f32[]" }, (out) => {
    if (threadIdx.x >= 2) return;
    syncthreads();
    out[threadIdx.x] = 1;
  }, { name: "early" });
  assert.throws(() => k.simulate({ grid: 1, block: 4 }, new Float32Array(4)), JitSimulationError);
  assert.throws(
    () => k.simulate({ grid: 1, block: 4 }, new Float32Array(4)),
    {
      message: new RegExp(
        `^Cannot simulate kernel "early": thread \\(0, 0, 0\\) of block \\(0, 0, 0\\) waits at the syncthreads\\(\\) at tests/jit/simulate_test\\.ts:${
          start + 3
        }:5, but thread \\(2, 0, 0\\) exited without reaching it: every thread of a block must reach the same syncthreads\\(\\)$`,
      ),
    },
  );
});

test("simulate() reports threads waiting at different syncthreads() calls", () => {
  const start = line();
  const k = jit({ out: "f32[]" }, (out) => {
    if (threadIdx.x === 0) {
      syncthreads();
    } else {
      syncthreads();
    }
    out[threadIdx.x] = 1;
  }, { name: "split" });
  try {
    k.simulate({ grid: 1, block: 2 }, new Float32Array(2));
    assert.fail("no error");
  } catch (e) {
    assert.ok(e instanceof JitSimulationError);
    assert.ok(
      e.message.includes(
        `thread (1, 0, 0) waits at the syncthreads() at tests/jit/simulate_test.ts:${start + 5}:7`,
      ),
      e.message,
    );
    assert.deepEqual([e.thread, e.block], [[1, 0, 0], [0, 0, 0]]);
  }
});

test("simulate() reports an out-of-bounds access with the array, index, position and thread", () => {
  const start = line();
  const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
    const i = grid(1);
    a[i] = n;
  }, { name: "unguarded" });
  try {
    k.simulate({ grid: 2, block: 4 }, new Float32Array(6), 1);
    assert.fail("no error");
  } catch (e) {
    assert.ok(e instanceof JitSimulationError);
    assert.match(
      e.message,
      new RegExp(
        `^Cannot simulate kernel "unguarded": a\\[6\\] is out of bounds \\(length 6\\) at tests/jit/simulate_test\\.ts:${
          start + 3
        }:5, in thread \\(2, 0, 0\\) of block \\(1, 0, 0\\)$`,
      ),
    );
    assert.deepEqual([e.thread, e.block], [[2, 0, 0], [1, 0, 0]]);
  }
  const read = jit({ a: "f32[]", out: "f32[]" }, (a, out) => {
    out[0] = a[-1 + threadIdx.x];
  });
  assert.throws(
    () => read.simulate({ grid: 1, block: 1 }, new Float32Array(2), new Float32Array(1)),
    /a\[-1\] is out of bounds/,
  );
});

test("simulate() rejects the wrong number of arguments, naming the parameters", () => {
  const k = jit({ a: "f32[]", n: "i32" }, (a, n) => {
    a[0] = n;
  }, { name: "two" });
  assert.throws(() => k.simulate({ grid: 1, block: 1 }, new Float32Array(1)), {
    name: "TypeError",
    message: 'Cannot simulate kernel "two": it takes 2 arguments (a, n), got 1',
  });
});

test("simulate() rejects an argument of the wrong type, naming the parameter", () => {
  const k = jit({ a: "f32[]", n: "i32", u: "u32" }, (a, n, u) => {
    a[0] = n + i32(u);
  }, { name: "typed" });
  const config = { grid: 1, block: 1 };
  const f32 = new Float32Array(1);
  assert.throws(() => k.simulate(config, new Float64Array(1), 1, 1), {
    name: "TypeError",
    message: 'Cannot simulate kernel "typed": parameter a ("f32[]") needs a Float32Array, got a Float64Array',
  });
  assert.throws(
    () => k.simulate(config, 3, 1, 1),
    /parameter a \("f32\[\]"\) needs a Float32Array, got the number 3/,
  );
  assert.throws(
    () => k.simulate(config, f32, f32, 1),
    /parameter n \("i32"\) needs a number, got a Float32Array/,
  );
  assert.throws(
    () => k.simulate(config, f32, 1.5, 1),
    /parameter n \("i32"\) needs an integer from -2147483648 to 2147483647, got 1\.5/,
  );
  assert.throws(
    () => k.simulate(config, f32, 1, -1),
    /parameter u \("u32"\) needs an integer from 0 to 4294967295, got -1/,
  );
});

test("simulate() rounds f32 scalar arguments as the GPU receives them", () => {
  const k = jit({ out: "f64[]", x: "f32" }, (out, x) => {
    out[0] = x;
  });
  const out = new Float64Array(1);
  k.simulate({ grid: 1, block: 1 }, out, 0.1);
  assert.equal(out[0], Math.fround(0.1));
});

test("simulate() rejects a malformed launch configuration", () => {
  const k = jit({ a: "f32[]" }, (a) => {
    a[0] = 1;
  }, { name: "one" });
  const a = new Float32Array(1);
  assert.throws(() => k.simulate({ grid: 0, block: 1 }, a), {
    name: "RangeError",
    message: 'Cannot simulate kernel "one": grid sizes must be positive integers, got 0',
  });
  assert.throws(
    () => k.simulate({ grid: 1, block: [2, 1.5] }, a),
    /block sizes must be positive integers, got \[2,1\.5\]/,
  );
  assert.throws(
    () => k.simulate({ grid: 1, block: [64, 32] }, a),
    /a block of 2048 threads is more than the 1024 a GPU runs/,
  );
  assert.throws(
    () => k.simulate({ grid: [1, 1, 1, 1], block: 1 } as unknown as LaunchConfig, a),
    /grid must be a number or an array of 1 to 3 numbers/,
  );
  assert.throws(
    () => k.simulate(undefined as unknown as LaunchConfig, a),
    /the launch configuration must be \{ grid, block \}/,
  );
});

test("a kernel made with { simulate: true } is simulation-first: launch() runs the simulator", () => {
  const k = jit({ a: "f32[]" }, (a) => {
    a[threadIdx.x] = threadIdx.x * 2;
  }, { simulate: true });
  assert.equal(k.simulated, true);
  const a = new Float32Array(3);
  k.launch({ grid: 1, block: 3 }, a);
  assert.deepEqual(Array.from(a), [0, 2, 4]);
});

test("CUDENO_JIT_SIMULATE=1 makes kernels simulation-first unless they opt out", () => {
  const before = Deno.env.get("CUDENO_JIT_SIMULATE");
  Deno.env.set("CUDENO_JIT_SIMULATE", "1");
  try {
    const body = (a: Float32Array) => {
      a[0] = 1;
    };
    assert.equal(jit({ a: "f32[]" }, body as never).simulated, true);
    assert.equal(jit({ a: "f32[]" }, body as never, { simulate: false }).simulated, false);
    Deno.env.set("CUDENO_JIT_SIMULATE", "0");
    assert.equal(jit({ a: "f32[]" }, body as never).simulated, false);
  } finally {
    if (before === undefined) Deno.env.delete("CUDENO_JIT_SIMULATE");
    else Deno.env.set("CUDENO_JIT_SIMULATE", before);
  }
});
