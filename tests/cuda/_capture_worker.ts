/**
 * A Worker of `capture_workers_test.ts`. As `"capture"`, it captures array work on a non-blocking
 * stream (in the default mode, `"threadLocal"`) and replays the graph, `rounds` times (more, until
 * another Worker has computed meanwhile), then raises the shared stop flag; as `"compute"`, it
 * allocates, computes and reads back on the legacy default stream until that flag is up. Every result
 * is checked against the host; the Worker posts what it saw.
 */
import * as cuda from "../../src/cuda/mod.ts";
import * as ga from "../../src/array/mod.ts";

/**
 * What the test sends: the role, the rounds of captures, how many compute Workers there are, and
 * `[stop, compute rounds done, compute Workers ready]`.
 */
export interface CaptureJob {
  readonly role: "capture" | "compute";
  readonly rounds: number;
  readonly computeWorkers: number;
  readonly seed: number;
  readonly shared: Int32Array;
}

/** The indices into {@link CaptureJob.shared}. */
const STOP = 0, COMPUTED = 1, READY = 2;

/** What a Worker posts back. */
export interface CaptureReport {
  readonly role: "capture" | "compute";
  /** Rounds run. */
  readonly rounds: number;
  /** For the capture Worker: the compute rounds the other Workers finished while it captured. */
  readonly overlapped: number;
  /** Each wrong result or error, in words. */
  readonly failures: string[];
}

const scope = self as unknown as {
  onmessage: (event: MessageEvent<CaptureJob>) => void;
  postMessage(report: CaptureReport): void;
};

const ROWS = 20, COLS = 50, N = ROWS * COLS;

/** `start + i` for each element, as float32. */
function ramp(start: number): Float32Array {
  return Float32Array.from({ length: N }, (_, i) => start + i);
}

/** The first index where `got` differs from `want`, in words, or undefined. */
function differs(what: string, got: ArrayLike<number>, want: ArrayLike<number>): string | undefined {
  if (got.length !== want.length) return `${what}: ${got.length} elements, not ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) return `${what}: element ${i} is ${got[i]}, the host gives ${want[i]}`;
  }
  return undefined;
}

interface Arrays {
  x: ga.GPUArray<"float32">;
  y: ga.GPUArray<"float32">;
  w: ga.GPUArray<"float32">;
}

/** x += 1; y = 2x; w = 3x + y, through a temporary made (and freed) inside the capture. */
function step({ x, y, w }: Arrays): void {
  x.add(1, { out: x });
  ga.mul(x, 2, { out: y });
  const t = x.T.mul(3);
  const back = t.T;
  ga.add(back, y, { out: w });
  back.free();
  t.free();
}

function captureRounds(job: CaptureJob, failures: string[]): { rounds: number; overlapped: number } {
  const stream = new cuda.Stream({ nonBlocking: true });
  const arrays: Arrays = {
    x: ga.toGpu(ramp(0), [ROWS, COLS]),
    y: ga.zeros([ROWS, COLS]),
    w: ga.zeros([ROWS, COLS]),
  };
  ga.withStream(stream, () => step(arrays)); // every kernel runs once before it is captured
  stream.synchronize();
  // The captures begin once every compute Worker has compiled its kernels and computes in a loop.
  const until = Date.now() + 120_000;
  for (let ready; (ready = Atomics.load(job.shared, READY)) < job.computeWorkers && Date.now() < until;) {
    Atomics.wait(job.shared, READY, ready, 100);
  }
  const startedAt = Atomics.load(job.shared, COMPUTED);
  // At least `rounds` captures, and on until another Worker finished a round meanwhile (on a loaded
  // machine the first ones can end before it does), for at most a minute more.
  const deadline = Date.now() + 60_000;
  const more = (rounds: number) =>
    rounds < job.rounds || (Atomics.load(job.shared, COMPUTED) === startedAt && Date.now() < deadline);
  let rounds = 0;
  for (; more(rounds); rounds++) {
    const start = job.seed + rounds;
    arrays.x.set(ramp(start));
    using graph = cuda.capture(stream, () => ga.withStream(stream, () => step(arrays)));
    using exec = graph.instantiate();
    for (let k = 0; k < 3; k++) exec.launch(stream);
    stream.synchronize();
    const x = ramp(start + 3);
    const failure = differs(`round ${rounds} x`, arrays.x.get(), x) ??
      differs(`round ${rounds} y`, arrays.y.get(), x.map((v) => 2 * v)) ??
      differs(`round ${rounds} w`, arrays.w.get(), x.map((v) => 5 * v));
    if (failure !== undefined) failures.push(failure);
  }
  const overlapped = Atomics.load(job.shared, COMPUTED) - startedAt;
  Object.values(arrays).forEach((a) => a.free());
  stream.destroy();
  return { rounds, overlapped };
}

function computeRound(seed: number, round: number): string | undefined {
  const host = Float32Array.from({ length: 1 << 16 }, (_, i) => ((i * 7 + seed + round) % 29) - 14); // sums stay below 2^24: exact
  using x = ga.toGpu(host);
  using squared = ga.mul(x, x);
  using y = ga.add(squared, 1);
  using big = ga.zeros([1 << 21]); // 8 MiB more from the pool
  ga.fill(big, 2);
  const want = host.map((v) => v * v + 1);
  let total = 0;
  for (const v of want) total += v;
  return differs(`round ${round} x² + 1`, y.get(), want) ??
    (ga.sum(y) === total ? undefined : `round ${round}: sum ${ga.sum(y)}, the host gives ${total}`) ??
    (big.get().every((v) => v === 2) ? undefined : `round ${round}: a filled array is not all 2`);
}

scope.onmessage = (event) => {
  const job = event.data;
  const failures: string[] = [];
  let rounds = 0, overlapped = 0;
  try {
    ga.useBackend("cuda");
    if (job.role === "capture") {
      ({ rounds, overlapped } = captureRounds(job, failures));
    } else {
      while (Atomics.load(job.shared, STOP) === 0) {
        try {
          const failure = computeRound(job.seed, rounds++);
          if (failure !== undefined) failures.push(failure);
        } finally {
          if (rounds === 1) { // compiled, whether or not the round went right
            Atomics.add(job.shared, READY, 1);
            Atomics.notify(job.shared, READY);
          }
        }
        Atomics.add(job.shared, COMPUTED, 1);
      }
    }
  } catch (e) {
    failures.push(
      `${job.role} Worker, round ${rounds}: ${e instanceof Error ? `${e.name}: ${e.message}` : e}`,
    );
  } finally {
    if (job.role === "capture") Atomics.store(job.shared, STOP, 1); // the others stop
  }
  scope.postMessage({ role: job.role, rounds, overlapped, failures });
};
