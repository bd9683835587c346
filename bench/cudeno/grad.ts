/**
 * cudeno's gradient figures for the GPU benchmark (bench/README.md lists them, issue 29 item 5): the
 * forward and backward pass of a fused chain over 2^28 floats and of an MLP loss, timed between device
 * events as the Python peers time PyTorch's autograd eager and under torch.compile, each checked against
 * the host first; and the host's cost of recording an operation for the backward pass.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";
import { checkMlp, mlpProblem } from "./grad_mlp.ts";

/**
 * Milliseconds per call of `fn` over `batch` calls between device events, `repeats` samples, after
 * `settleMs` of untimed batches (suite.ts's timer).
 */
export type EventTimes = (
  repeats: number,
  fn: () => void,
  batch?: number,
  host?: number[],
  settleMs?: number,
) => number[];
/** How many calls make a sample of at least 10 ms (suite.ts's `batchFor`). */
export type BatchFor = (fn: () => void) => number;

const N = 2 ** 28;
const BATCH = 4096;
/** Milliseconds of untimed steps before the MLP's samples, as suite.ts's and records.py's matmul settle. */
const SETTLE_MS = 1000;
/** Recorded operations per call of the host-cost figure, on arrays of TINY elements. */
const OPS = 100;
const TINY = 16;
/** Calls of that function per host sample, and samples of each way. */
const ROUNDS = 200;
const HOST_SAMPLES = 7;

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

const gbps = (bytes: number, ms: number[]) => ms.map((t) => bytes / (t / 1000) / 1e9);

/** Frees every array leaf of a gradient tree. */
function freeTree(tree: unknown): void {
  if (tree instanceof ga.GPUArray) tree.free();
  else if (Array.isArray(tree)) tree.forEach(freeTree);
  else if (typeof tree === "object" && tree !== null) Object.values(tree).forEach(freeTree);
}

/** Emits `grad.chain.2^28`, `grad.mlp.4096` and `grad.record.host`. */
export function gradFigures(
  emit: (r: BenchRecord) => void,
  eventTimes: EventTimes,
  batchFor: BatchFor,
): void {
  ga.useBackend("cuda");
  chainFigure(emit, eventTimes, batchFor);
  mlpFigure(emit, eventTimes, batchFor);
  recordFigure(emit);
}

function chainFigure(emit: (r: BenchRecord) => void, eventTimes: EventTimes, batchFor: BatchFor): void {
  const x = ga.random.uniform([N], { seed: 31 }), y = ga.random.uniform([N], { seed: 32 });
  const [hx, hy] = [x.get() as Float32Array, y.get() as Float32Array];
  const chain = (x: ga.GPUArray, y: ga.GPUArray) => ga.sum(ga.exp(x.mul(2).add(y)).mul(0.5));
  const step = ga.valueAndGrad(ga.fuse(chain, { name: "chainSum" }), { argnums: [0, 1] });

  const [value, [dx, dy]] = step(x, y);
  const [hdx, hdy] = [dx.get() as Float32Array, dy.get() as Float32Array];
  const got = Number(value);
  [value, dx, dy].forEach((a) => a.free());
  let want = 0;
  for (let i = 0; i < N; i++) want += Math.exp(2 * hx[i]! + hy[i]!) * 0.5;
  if (!(Math.abs(got - want) <= 1e-4 * want)) fail(`grad.chain: the value is ${got}, want ${want}`);
  for (let i = 0; i < N; i += 65_537) {
    const e = Math.exp(2 * hx[i]! + hy[i]!);
    if (!(Math.abs(hdx[i]! - e) <= 1e-6 * e)) fail(`grad.chain: dx[${i}] is ${hdx[i]}, want ${e}`);
    if (!(Math.abs(hdy[i]! - 0.5 * e) <= 1e-6 * e)) {
      fail(`grad.chain: dy[${i}] is ${hdy[i]}, want ${0.5 * e}`);
    }
  }

  const call = () => {
    const [v, [gx, gy]] = step(x, y);
    v.free();
    gx.free();
    gy.free();
  };
  emit({
    impl: "cudeno",
    figure: "grad.chain.2^28",
    unit: "GB/s",
    better: "higher",
    samples: gbps(4 * 4 * N, eventTimes(20, call, batchFor(call))),
    note:
      "ga.valueAndGrad(ga.fuse((x, y) => ga.sum(ga.exp(x.mul(2).add(y)).mul(0.5))), { argnums: [0, 1] }) on 2^28 float32: the value (a 0-d array) and dx, dy, new arrays each call; useful bytes 4 × 4 × 2^28 (x, y read, dx, dy written); differentiated, the fused function runs its operations eagerly, each recording its rule",
  });
  x.free();
  y.free();
}

function mlpFigure(emit: (r: BenchRecord) => void, eventTimes: EventTimes, batchFor: BatchFor): void {
  const { params, x, targets, loss } = mlpProblem(BATCH);
  const step = ga.valueAndGrad(loss);
  checkMlp(params, x, targets, loss, fail);

  // On the whole batch: a finite loss, the same at a second evaluation.
  const values = [0, 1].map(() => {
    const [v, grads] = step(params, x, targets);
    const value = Number(v);
    v.free();
    freeTree(grads);
    return value;
  });
  if (!Number.isFinite(values[0]!) || Math.abs(values[0]! - values[1]!) > 1e-6 * Math.abs(values[0]!)) {
    fail(`grad.mlp: the loss of the batch is ${values[0]}, then ${values[1]}`);
  }
  const call = () => {
    const [v, grads] = step(params, x, targets);
    v.free();
    freeTree(grads);
  };
  emit({
    impl: "cudeno",
    figure: `grad.mlp.${BATCH}`,
    unit: "ms",
    better: "lower",
    samples: eventTimes(20, call, batchFor(call), undefined, SETTLE_MS),
    note:
      `ga.valueAndGrad of the cross-entropy loss (-mean(sum(t * logSoftmax(z, 1), 1)), one-hot t) of a 784-1024-1024-10 MLP (ReLU as ga.maximum(h, 0)), batch ${BATCH}, float32: the loss and the six parameter gradients, per step; loss ${
        values[0]!.toFixed(4)
      }`,
  });
  freeTree([params, x, targets]);
}

/**
 * Host microseconds per recorded operation: OPS elementwise operations on TINY elements run inside
 * `ga.vjp` (recorded; the pullback made and freed, never called) less the same run eagerly, per operation.
 */
function recordFigure(emit: (r: BenchRecord) => void): void {
  const x = ga.random.uniform([TINY], { seed: 33 }), w = ga.random.uniform([TINY], { seed: 34, low: 0.5 });
  const made: ga.GPUArray[] = [];
  const chain = (x: ga.GPUArray) => {
    let y = x;
    for (let k = 0; k < OPS; k++) {
      y = k % 4 === 0 ? y.mul(w) : k % 4 === 1 ? y.add(0.25) : k % 4 === 2 ? ga.tanh(y) : y.sub(x);
      made.push(y);
    }
    return y;
  };
  const eager = () => {
    chain(x);
    made.forEach((a) => a.free());
    made.length = 0;
  };
  const recorded = () => {
    const [out, pullback] = ga.vjp(chain, x);
    pullback.free();
    out.free();
    made.length = 0;
  };
  // The recorded forward computes what the eager one does: check that before timing it.
  const want = chain(x).get();
  made.forEach((a) => a.free());
  made.length = 0;
  const [out, pullback] = ga.vjp(chain, x);
  const got = out.get();
  pullback.free();
  out.free();
  made.length = 0;
  got.forEach((v, i) => v === want[i] || fail(`grad.record: recorded [${i}] is ${v}, eager ${want[i]}`));

  const sync = () => x.backend.synchronize();
  const hostUs = (fn: () => void) => {
    sync();
    const t = performance.now();
    for (let r = 0; r < ROUNDS; r++) fn();
    const us = ((performance.now() - t) * 1000) / (ROUNDS * OPS);
    sync();
    return us;
  };
  for (let r = 0; r < ROUNDS / 10; r++) {
    eager();
    recorded();
  }
  const eagerUs: number[] = [], extraUs: number[] = [];
  for (let s = 0; s < HOST_SAMPLES; s++) {
    // In turns, each first in every other sample, so that drift hits both alike.
    let e: number, r: number;
    if (s % 2 === 0) [e, r] = [hostUs(eager), hostUs(recorded)];
    else [r, e] = [hostUs(recorded), hostUs(eager)];
    eagerUs.push(e);
    extraUs.push(r - e);
  }
  x.free();
  w.free();
  const median = [...eagerUs].sort((a, b) => a - b)[HOST_SAMPLES >> 1]!;
  emit({
    impl: "cudeno",
    figure: "grad.record.host",
    unit: "us",
    better: "lower",
    samples: extraUs,
    note:
      `host time of ${OPS} elementwise ops on ${TINY} float32 (mul, add, tanh, sub in turn) inside ga.vjp (recorded; the pullback freed, not called) less the same ops eagerly (${
        median.toFixed(2)
      } µs an op), per op; ${ROUNDS} calls a sample`,
  });
}
