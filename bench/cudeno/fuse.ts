/**
 * cudeno's kernel-fusion figures for the GPU benchmark (bench/README.md lists them): three fused
 * functions timed between device events as the Python peers time PyTorch eager, torch.compile,
 * cupy.fuse and jax.jit, each result checked against the host first; and the first call of a fused
 * function (trace, code, compile or disk-cache load, launch) in new processes, cold and cached.
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/** Milliseconds per call of `fn` over `batch` calls between device events, `repeats` samples (suite.ts's timer). */
export type EventTimes = (repeats: number, fn: () => void, batch?: number) => number[];
/** How many calls make a sample of at least 10 ms (suite.ts's `batchFor`). */
export type BatchFor = (fn: () => void) => number;

const N = 2 ** 28;
const SIDE = 8192;
const FIRST_CALL_RUNS = 5;

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

const gbps = (bytes: number, ms: number[]) => ms.map((t) => bytes / (t / 1000) / 1e9);

/**
 * Emits `fuse.chain.2^28`, `fuse.sqdiff_sum.2^28`, `fuse.rownorm.8192x8192`, `fuse.first_call.cold`
 * and `fuse.first_call.cached`.
 */
export async function fuseFigures(
  emit: (r: BenchRecord) => void,
  eventTimes: EventTimes,
  batchFor: BatchFor,
): Promise<void> {
  ga.useBackend("cuda");
  // Batches of calls between the events, so that a call's host time overlaps the device's work on the
  // ones before (as every producer of these figures times them).
  const time = (fn: () => void) => eventTimes(20, fn, batchFor(fn));
  const x = ga.random.uniform([N], { seed: 21 }), y = ga.random.uniform([N], { seed: 22 });
  const [hx, hy] = [x.get(), y.get()];

  const step = ga.fuse((x: ga.GPUArray, y: ga.GPUArray, a: number) => ga.exp(x.mul(a).add(y)).mul(0.5), {
    name: "chain",
  });
  const z = step(x, y, 2);
  const hz = z.get();
  z.free();
  for (let i = 0; i < N; i += 65_537) {
    const want = Math.exp(2 * hx[i]! + hy[i]!) * 0.5;
    if (Math.abs(hz[i]! - want) > 1e-6 * want) fail(`fuse.chain: [${i}] is ${hz[i]}, want ${want}`);
  }
  emit({
    impl: "cudeno",
    figure: "fuse.chain.2^28",
    unit: "GB/s",
    better: "higher",
    samples: gbps(3 * 4 * N, time(() => step(x, y, 2).free())),
    note:
      "ga.fuse((x, y, a) => ga.exp(x.mul(a).add(y)).mul(0.5)) on 2^28 float32, a = 2, a new result each call; useful bytes 3 × 4 × 2^28",
  });

  // Over axis 0 of a 1-D array: a 0-d array on the device, as the peers' results stay there.
  const loss = ga.fuse((p: ga.GPUArray, q: ga.GPUArray) => p.sub(q).square().sum({ axis: 0 }), {
    name: "sqdiff",
  });
  let want = 0;
  for (let i = 0; i < N; i++) want += (hx[i]! - hy[i]!) ** 2;
  const got = loss(x, y);
  const value = Number(got.get()[0]!);
  got.free();
  if (Math.abs(value - want) > 1e-4 * want) fail(`fuse.sqdiff_sum: ${value}, want ${want}`);
  emit({
    impl: "cudeno",
    figure: "fuse.sqdiff_sum.2^28",
    unit: "GB/s",
    better: "higher",
    samples: gbps(2 * 4 * N, time(() => loss(x, y).free())),
    note:
      "ga.fuse((p, q) => p.sub(q).square().sum({ axis: 0 })) on 2^28 float32: one reduction into a 0-d array; useful bytes 2 × 4 × 2^28",
  });
  x.free();
  y.free();

  const m = ga.random.uniform([SIDE, SIDE], { seed: 23 });
  const norm = ga.fuse((x: ga.GPUArray) => x.div(x.square().sum({ axis: 1, keepdims: true }).sqrt()), {
    name: "rownorm",
  });
  const hm = m.get(), r = norm(m), hr = r.get();
  r.free();
  for (const row of [0, 4097, SIDE - 1]) {
    let s = 0;
    for (let k = 0; k < SIDE; k++) s += hm[row * SIDE + k]! ** 2;
    for (const k of [0, 17, SIDE - 1]) {
      const w = hm[row * SIDE + k]! / Math.sqrt(s), v = hr[row * SIDE + k]!;
      if (Math.abs(v - w) > 1e-5 * Math.abs(w)) fail(`fuse.rownorm: [${row}, ${k}] is ${v}, want ${w}`);
    }
  }
  emit({
    impl: "cudeno",
    figure: `fuse.rownorm.${SIDE}x${SIDE}`,
    unit: "GB/s",
    better: "higher",
    samples: gbps(2 * 4 * SIDE * SIDE, time(() => norm(m).free())),
    note:
      "ga.fuse((x) => x.div(x.square().sum({ axis: 1, keepdims: true }).sqrt())) on 8192×8192 float32: one row kernel; bytes read + written once",
  });
  m.free();

  await firstCalls(emit);
}

/** Runs fuse_first_call.ts in a new process with `env`: the milliseconds of its first fused call. */
async function firstCall(env: Record<string, string>): Promise<number> {
  const script = join(fileURLToPath(new URL(".", import.meta.url)), "fuse_first_call.ts");
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", script], env, stderr: "inherit" })
    .output();
  const text = new TextDecoder().decode(out.stdout).trim();
  if (out.code !== 0) fail(`fuse_first_call.ts exited ${out.code}: ${text}`);
  return (JSON.parse(text) as { ms: number }).ms;
}

async function firstCalls(emit: (r: BenchRecord) => void): Promise<void> {
  const cold: number[] = [];
  for (let s = 0; s < FIRST_CALL_RUNS; s++) {
    const dir = await Deno.makeTempDir({ prefix: "cudeno-fuse-cold-" });
    try {
      cold.push(await firstCall({ CUDENO_CACHE_DIR: dir }));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  emit({
    impl: "cudeno",
    figure: "fuse.first_call.cold",
    unit: "ms",
    better: "lower",
    samples: cold,
    note:
      "first call of a fused exp(2x + y) * 0.5 in a new process with an empty disk cache: trace, code, NVRTC compile, load, launch on 2^20 float32, synchronize (the process's CUDA and NVRTC start-up before it)",
  });
  const dir = await Deno.makeTempDir({ prefix: "cudeno-fuse-cached-" });
  try {
    await firstCall({ CUDENO_CACHE_DIR: dir }); // fills the cache
    const cached: number[] = [];
    for (let s = 0; s < FIRST_CALL_RUNS; s++) cached.push(await firstCall({ CUDENO_CACHE_DIR: dir }));
    emit({
      impl: "cudeno",
      figure: "fuse.first_call.cached",
      unit: "ms",
      better: "lower",
      samples: cached,
      note:
        "the same first call in a new process whose disk cache has the kernel (an earlier process compiled it)",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
