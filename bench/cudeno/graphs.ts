/**
 * cudeno's CUDA graph figures for the GPU benchmark (bench/README.md lists them): 100 empty launches
 * and 100 in-place array ops on a stream, queued eagerly or captured once into a graph and replayed.
 *
 * @module
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";

/**
 * The figures `${prefix}.eager` and `${prefix}.replay`, in µs per operation: `queueOps` queues `ops`
 * operations on `stream`; eager runs it `rounds` times per sample, replay captures it once into a
 * graph and launches that `rounds` times; each sample ends with a synchronize, and the samples of the
 * two alternate, so that drift hits both alike. `check(opsRun)`, when given, is called after the
 * warm-ups (before any sample) and at the end with the number of operations run in all so far, to
 * verify their result.
 */
function replayFigures(
  emit: (record: BenchRecord) => void,
  prefix: string,
  stream: cuda.Stream,
  queueOps: () => void,
  ops: number,
  notes: { eager: string; replay: string },
  check?: (opsRun: number) => void,
  rounds = 2000,
): void {
  using graph = cuda.capture(stream, queueOps);
  if (graph.nodeCount < ops) {
    throw new Error(`${prefix}: the captured graph has ${graph.nodeCount} nodes for ${ops} operations`);
  }
  using exec = graph.instantiate();
  exec.upload(stream);
  let opsRun = 0;
  const runs = {
    eager: (n: number) => {
      for (let r = 0; r < n; r++) queueOps();
    },
    replay: (n: number) => {
      for (let r = 0; r < n; r++) exec.launch(stream);
    },
  };
  const time = (run: (n: number) => void, n: number): number => {
    const t = performance.now();
    run(n);
    stream.synchronize();
    opsRun += n * ops;
    return ((performance.now() - t) * 1000) / (n * ops);
  };
  time(runs.eager, rounds / 10);
  time(runs.replay, rounds / 10);
  check?.(opsRun);
  const eager: number[] = [], replay: number[] = [];
  for (let s = 0; s < 7; s++) {
    eager.push(time(runs.eager, rounds));
    replay.push(time(runs.replay, rounds));
  }
  check?.(opsRun);
  emit({
    impl: "cudeno",
    figure: `${prefix}.eager`,
    unit: "us",
    better: "lower",
    samples: eager,
    note: notes.eager,
  });
  emit({
    impl: "cudeno",
    figure: `${prefix}.replay`,
    unit: "us",
    better: "lower",
    samples: replay,
    note: notes.replay,
  });
}

/** Emits `graph.empty.{eager,replay}` and `graph.add1.{eager,replay}`. */
export function graphFigures(mod: cuda.SourceModule, emit: (record: BenchRecord) => void): void {
  const empty = mod.getFunction("empty");
  using buf = cuda.memAlloc(1024);
  using stream = new cuda.Stream();
  const cfg = { grid: 1, block: 32, stream };
  replayFigures(
    emit,
    "graph.empty",
    stream,
    () => {
      for (let k = 0; k < 100; k++) empty(buf, 0, cfg);
    },
    100,
    {
      eager:
        "100 launches of empty (grid 1, block 32) on a stream, 2000 rounds, then a synchronize; per launch",
      replay:
        "the same 100 launches captured once with cuda.capture() and replayed by exec.launch(), 2000 times; per kernel",
    },
  );
  // 100 in-place array ops on a 1-element array, on the stream through ga.withStream().
  ga.useBackend("cuda");
  const x = ga.asarray([1], "float32");
  const add100 = () =>
    ga.withStream(stream, () => {
      for (let k = 0; k < 100; k++) x.add(1, { out: x });
    });
  add100(); // loads the kernel before the capture
  const first = ga.withStream(stream, () => x.get()[0]!);
  if (first !== 101) throw new Error(`graph.add1: x = ${first} after 100 x.add(1), want 101`);
  replayFigures(
    emit,
    "graph.add1",
    stream,
    add100,
    100,
    {
      eager:
        "100 x.add(1, { out: x }) on a 1-element float32 array inside ga.withStream(stream), 500 rounds, then a synchronize; per op",
      replay:
        "the same 100 ops captured once with cuda.capture() and replayed by exec.launch(), 500 times; per op",
    },
    (opsRun) => {
      const value = ga.withStream(stream, () => x.get()[0]!);
      if (value !== first + opsRun) throw new Error(`graph.add1: x = ${value}, want ${first + opsRun}`);
    },
    500,
  );
}
