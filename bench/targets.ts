/**
 * What cudeno's figures are compared with, and the targets they must meet: the records of a run
 * indexed by figure and impl, cudeno's ratios to the C floor and to the best peer, the project's
 * targets (bench/README.md lists them) and their verdicts. bench/report.ts renders them.
 * @module
 */
import { type BenchRecord, type Impl, median } from "./records.ts";

/** Each impl as the report names it. */
export const NAMES: Record<Impl, string> = {
  "c": "C",
  "opencl-c": "OpenCL C",
  "deno-raw": "Deno raw FFI",
  "cudeno": "cudeno",
  "cupy": "CuPy",
  "torch": "PyTorch",
  "torch-compile": "torch.compile",
  "jax": "JAX",
};
const PEERS: readonly Impl[] = ["cupy", "torch", "torch-compile", "jax"];

// ---- the records, indexed

/** figure → impl → record, figures in the order the run first produced them. */
export type Index = Map<string, Map<Impl, BenchRecord>>;

/** The records indexed; a second record of a figure by the same impl is ignored, and said in `problems`. */
export function indexRecords(records: readonly BenchRecord[], problems: string[]): Index {
  const index: Index = new Map();
  for (const r of records) {
    const byImpl = index.get(r.figure) ?? new Map<Impl, BenchRecord>();
    index.set(r.figure, byImpl);
    if (byImpl.has(r.impl)) problems.push(`a second ${r.impl} record of ${r.figure} was ignored`);
    else byImpl.set(r.impl, r);
  }
  return index;
}

/** `impl`'s record of `figure`, if the run has one. */
export function get(index: Index, figure: string, impl: Impl): BenchRecord | undefined {
  return index.get(figure)?.get(impl);
}

/** The C floor a figure is compared with: OpenCL C for OpenCL figures, the driver-API C program otherwise. */
export function floorOf(figure: string): Impl {
  return figure.startsWith("opencl.") ? "opencl-c" : "c";
}

/** The peer (CuPy or PyTorch) with the best median for a figure, in cudeno's unit. */
export function bestPeer(index: Index, figure: string): BenchRecord | undefined {
  const unit = get(index, figure, "cudeno")?.unit;
  const peers = PEERS.map((p) => get(index, figure, p)).filter((r): r is BenchRecord =>
    !!r && r.unit === unit
  );
  const score = (r: BenchRecord) => (r.better === "lower" ? -1 : 1) * median(r.samples);
  return peers.sort((a, b) => score(b) - score(a))[0];
}

/** cudeno's median over the reference's, where both exist in the same unit. */
export function ratio(cudeno: BenchRecord | undefined, ref: BenchRecord | undefined): number | undefined {
  if (!cudeno || !ref || cudeno.unit !== ref.unit) return undefined;
  return median(cudeno.samples) / median(ref.samples);
}

// ---- targets

/**
 * What a target compares cudeno's median with: another impl's figure, cudeno's own other figure, the
 * best peer's median of another figure (a compiled step beside the peers' fastest mode of the same
 * step), or a time.
 */
type Reference =
  | { kind: "impl"; impl: Impl }
  | { kind: "own"; figure: string }
  | {
    kind: "peers";
    figure: string;
  }
  | { kind: "ms" }
  | { kind: "us" };

interface Condition {
  ref: Reference;
  op: "<=" | "<" | ">=" | "within";
  bound: number;
}

interface Target {
  applies: (figure: string) => boolean;
  conditions: Condition[];
}

const impl = (i: Impl): Reference => ({ kind: "impl", impl: i });
const own = (figure: string): Reference => ({ kind: "own", figure });
const peersOf = (figure: string): Reference => ({ kind: "peers", figure });
const is = (name: string) => (figure: string) => figure === name;

/** The project's targets, each a ratio of cudeno to a reference measured in the same run. */
const TARGETS: readonly Target[] = [
  {
    applies: (f) => f.startsWith("launch."),
    conditions: [{ ref: impl("c"), op: "<=", bound: 1.15 }, { ref: impl("cupy"), op: "<", bound: 1 }],
  },
  {
    applies: (f) => f.startsWith("copy.") || f === "d2d.copy.2^28",
    conditions: [{ ref: impl("c"), op: ">=", bound: 0.97 }],
  },
  { applies: is("vadd.e2e.2^24"), conditions: [{ ref: impl("c"), op: "<=", bound: 1.05 }] },
  { applies: is("cache.hit"), conditions: [{ ref: { kind: "ms" }, op: "<", bound: 2 }] },
  { applies: is("start.first_result"), conditions: [{ ref: impl("c"), op: "<=", bound: 1.2 }] },
  { applies: is("elementwise.add.2^28"), conditions: [{ ref: own("d2d.copy.2^28"), op: ">=", bound: 0.95 }] },
  { applies: is("view.add.broadcast"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  { applies: is("view.copy.transposed"), conditions: [{ ref: impl("torch"), op: ">=", bound: 2 }] },
  { applies: is("view.add.strided"), conditions: [{ ref: impl("torch"), op: ">=", bound: 0.9 }] },
  {
    applies: is("join.concatenate.8x2^25"),
    conditions: [{ ref: own("d2d.copy.2^28"), op: ">=", bound: 0.9 }],
  },
  { applies: is("small.add1.view.host"), conditions: [{ ref: impl("torch"), op: "<=", bound: 1 }] },
  {
    applies: is("reduce.sum.2^28"),
    conditions: [
      { ref: own("d2d.copy.2^28"), op: ">=", bound: 0.85 },
      { ref: impl("cupy"), op: ">=", bound: 1 },
    ],
  },
  {
    applies: (f) => f === "reduce.sum.axis0.8192x8192" || f === "reduce.sum.axis1.8192x8192",
    conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }, { ref: impl("cupy"), op: ">=", bound: 1 }],
  },
  { applies: is("reduce.argmax.2^28"), conditions: [{ ref: impl("cupy"), op: ">=", bound: 0.95 }] },
  { applies: is("softmax.rows.8192x8192"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  // A transposed operand is read in place: the product runs at the untransposed rate.
  {
    applies: is("matmul.f32.8192.t"),
    conditions: [
      { ref: own("matmul.f32.8192"), op: ">=", bound: 0.95 },
      { ref: impl("torch"), op: ">=", bound: 0.95 },
    ],
  },
  {
    applies: is("matmul.bf16.8192.t"),
    conditions: [
      { ref: own("matmul.bf16.8192"), op: ">=", bound: 0.95 },
      { ref: impl("torch"), op: ">=", bound: 0.95 },
    ],
  },
  { applies: is("elementwise.add.2^28"), conditions: [{ ref: own("d2d.copy.2^28"), op: ">=", bound: 0.9 }] },
  { applies: is("reduce.sum.2^28"), conditions: [{ ref: own("d2d.copy.2^28"), op: ">=", bound: 0.85 }] },
  { applies: is("scan.cumsum.2^28"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  {
    applies: (f) => f.startsWith("matmul.") && !f.endsWith(".host"),
    conditions: [{ ref: impl("torch"), op: ">=", bound: 0.95 }],
  },
  {
    applies: (f) => f.startsWith("opencl.enqueue_finish"),
    conditions: [{ ref: impl("opencl-c"), op: "<=", bound: 1.15 }],
  },
  { applies: is("jit.kernel"), conditions: [{ ref: own("jit.handwritten"), op: "within", bound: 0.03 }] },
  { applies: is("jit.launch.async"), conditions: [{ ref: own("jit.fn.async"), op: "<=", bound: 1.05 }] },
  {
    // 100 empty kernels replayed as one graph: ≤ 1.3 µs a kernel, ≥ 2.5× faster than cudeno's own eager
    // launches of them on the same stream, and ≤ 1.1× C's capture and replay.
    applies: is("graph.empty.replay"),
    conditions: [
      { ref: { kind: "us" }, op: "<=", bound: 1.3 },
      { ref: own("graph.empty.eager"), op: "<=", bound: 0.4 },
      { ref: impl("c"), op: "<=", bound: 1.1 },
    ],
  },
  // Fused functions (ga.fuse): for fuse.chain, CuPy's figure is cupy.fuse's; PyTorch's is eager.
  {
    applies: is("fuse.chain.2^28"),
    conditions: [
      { ref: impl("torch"), op: ">=", bound: 2.5 },
      { ref: impl("torch-compile"), op: ">=", bound: 0.95 },
      { ref: impl("cupy"), op: ">=", bound: 1.3 },
    ],
  },
  {
    applies: is("fuse.sqdiff_sum.2^28"),
    conditions: [{ ref: impl("torch-compile"), op: ">=", bound: 0.95 }, {
      ref: impl("jax"),
      op: ">=",
      bound: 1.1,
    }],
  },
  {
    applies: is("fuse.rownorm.8192x8192"),
    conditions: [{ ref: impl("torch-compile"), op: ">=", bound: 0.95 }],
  },
  { applies: is("fuse.first_call.cold"), conditions: [{ ref: { kind: "ms" }, op: "<=", bound: 100 }] },
  { applies: is("fuse.first_call.cached"), conditions: [{ ref: { kind: "ms" }, op: "<=", bound: 2 }] },
  // Gradients (issue 29): forward + backward beside torch.compile's and PyTorch eager's; the tape's host cost.
  { applies: is("grad.chain.2^28"), conditions: [{ ref: impl("torch-compile"), op: ">=", bound: 0.95 }] },
  { applies: is("grad.mlp.4096"), conditions: [{ ref: impl("torch"), op: "<=", bound: 1 }] },
  { applies: is("grad.record.host"), conditions: [{ ref: { kind: "us" }, op: "<=", bound: 2 }] },
  // Eager training steps (issue 30): at least PyTorch eager's samples per second.
  { applies: is("train.mlp.4096"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  { applies: is("train.cnn.512"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  { applies: is("train.gpt.64x256.bf16"), conditions: [{ ref: impl("torch"), op: ">=", bound: 0.8 }] },
  // Whole compiled steps (issue 31): beside the fastest of PyTorch eager and torch.compile on the same step.
  {
    applies: is("train.mlp.4096.compiled"),
    conditions: [{ ref: peersOf("train.mlp.4096"), op: ">=", bound: 1 }],
  },
  {
    applies: is("train.cnn.512.compiled"),
    conditions: [{ ref: peersOf("train.cnn.512"), op: ">=", bound: 1 }],
  },
  {
    applies: is("train.gpt.64x256.bf16.compiled"),
    conditions: [{ ref: peersOf("train.gpt.64x256.bf16"), op: ">=", bound: 1.25 }],
  },
  // Statistics and random numbers (issue 33): beside CuPy and PyTorch.
  { applies: is("histogram.f32.2^28"), conditions: [{ ref: impl("cupy"), op: ">=", bound: 1 }] },
  { applies: is("bincount.i32.2^28"), conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }] },
  { applies: is("median.f32.2^26"), conditions: [{ ref: impl("torch"), op: "<=", bound: 1 }] },
  { applies: is("percentile.f32.2^24"), conditions: [{ ref: impl("torch"), op: "<=", bound: 1 }] },
  { applies: is("random.integers.2^28"), conditions: [{ ref: impl("torch"), op: ">=", bound: 0.95 }] },
  { applies: is("random.normal.2^28"), conditions: [{ ref: impl("torch"), op: ">=", bound: 0.95 }] },
  // Linear algebra (issue 32): ≥ 0.95× the best peer; batched small matrices beyond the anchors.
  {
    applies: (f) => /^(solve|cholesky|qr)\.f(32|64)\.4096$/.test(f),
    conditions: [{ ref: impl("torch"), op: ">=", bound: 0.95 }, { ref: impl("cupy"), op: ">=", bound: 0.95 }],
  },
  {
    applies: (f) => /^(eigh|svd)\.f(32|64)\.2048$/.test(f),
    conditions: [{ ref: impl("torch"), op: "<=", bound: 1 / 0.95 }, {
      ref: impl("cupy"),
      op: "<=",
      bound: 1 / 0.95,
    }],
  },
  {
    applies: (f) => f === "solve.batch.8x8.f32" || f === "inv.batch.8x8.f32",
    conditions: [{ ref: impl("torch"), op: "<=", bound: 0.1 }],
  },
  { applies: is("eigh.batch.100.f32"), conditions: [{ ref: impl("cupy"), op: "<=", bound: 1 }] },
  // 100 in-place array ops replayed ≥ 5× faster than eager (PyTorch's CUDAGraph replay beside it).
  { applies: is("graph.add1.replay"), conditions: [{ ref: own("graph.add1.eager"), op: "<=", bound: 0.2 }] },
  {
    applies: is("sort.f32.2^26"),
    conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }, { ref: impl("cupy"), op: ">=", bound: 0.6 }],
  },
];

export interface Verdict {
  condition: Condition;
  /** The ratio (or, for a time target, cudeno's median in ms); undefined where something is missing. */
  value?: number;
  met: boolean | null;
  missing?: string;
}

/** A condition as the report says it: "≥ 0.95× PyTorch", "≤ 2 ms". */
export function describe(c: Condition): string {
  const op = { "<=": "≤", "<": "<", ">=": "≥", "within": "within" }[c.op];
  if (c.ref.kind === "ms" || c.ref.kind === "us") {
    return `${op} ${c.bound} ${c.ref.kind === "us" ? "µs" : "ms"}`;
  }
  const what = c.ref.kind === "impl"
    ? NAMES[c.ref.impl]
    : c.ref.kind === "peers"
    ? `the best peer's ${c.ref.figure}`
    : `own ${c.ref.figure}`;
  if (c.op === "within") return `within ${c.bound * 100}% of ${what}`;
  return c.bound === 1 ? `${op} ${what}` : `${op} ${c.bound.toFixed(2)}× ${what}`;
}

function compare(op: Condition["op"], value: number, bound: number): boolean {
  if (op === "<=") return value <= bound;
  if (op === "<") return value < bound;
  if (op === ">=") return value >= bound;
  return Math.abs(value - 1) <= bound;
}

function toMs(r: BenchRecord): number | undefined {
  if (r.unit === "ms") return median(r.samples);
  return r.unit === "us" ? median(r.samples) / 1000 : undefined;
}

function referenceValue(index: Index, figure: string, ref: Reference): number | string {
  const cudeno = get(index, figure, "cudeno");
  if (!cudeno) return "no cudeno record";
  if (ref.kind === "ms" || ref.kind === "us") {
    const ms = toMs(cudeno);
    if (ms === undefined) return `unit ${cudeno.unit} is not a time`;
    return ref.kind === "us" ? ms * 1000 : ms;
  }
  const other = ref.kind === "impl"
    ? get(index, figure, ref.impl)
    : ref.kind === "peers"
    ? bestPeer(index, ref.figure)
    : get(index, ref.figure, "cudeno");
  const name = ref.kind === "impl"
    ? `${ref.impl} record`
    : ref.kind === "peers"
    ? `peer record of ${ref.figure}`
    : `cudeno ${ref.figure} record`;
  if (!other) return `no ${name}`;
  return ratio(cudeno, other) ?? `${name} is in ${other.unit}, cudeno's in ${cudeno.unit}`;
}

function evaluate(index: Index, figure: string, condition: Condition): Verdict {
  const value = referenceValue(index, figure, condition.ref);
  if (typeof value === "string") return { condition, met: null, missing: value };
  return { condition, value, met: compare(condition.op, value, condition.bound) };
}

/** The verdicts of the target that applies to `figure`; none where no target does. */
export function verdictsFor(index: Index, figure: string): Verdict[] {
  const target = TARGETS.find((t) => t.applies(figure));
  return target ? target.conditions.map((c) => evaluate(index, figure, c)) : [];
}

/** Met only when every condition is; unknown when none fails but one could not be judged. */
export function overall(verdicts: readonly Verdict[]): boolean | null | undefined {
  if (verdicts.length === 0) return undefined;
  if (verdicts.some((v) => v.met === false)) return false;
  return verdicts.every((v) => v.met === true) ? true : null;
}
