/**
 * results.json → RESULTS.md (tables per group with cudeno's ratios and targets) and two SVG bar charts of
 * cudeno's ratios against C and against the best peer. Runs on its own too:
 *
 *   deno run -A bench/report.ts [bench/results.json] [--out DIR]
 *
 * The outputs go beside the results file unless --out says otherwise.
 * @module
 */
import { parseArgs } from "node:util";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type BenchRecord,
  bestSample,
  type Better,
  type Impl,
  IMPLS,
  median,
  type ProducerStatus,
  type Results,
  toRecord,
} from "./records.ts";

const NAMES: Record<Impl, string> = {
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
type Index = Map<string, Map<Impl, BenchRecord>>;

function indexRecords(records: readonly BenchRecord[], problems: string[]): Index {
  const index: Index = new Map();
  for (const r of records) {
    const byImpl = index.get(r.figure) ?? new Map<Impl, BenchRecord>();
    index.set(r.figure, byImpl);
    if (byImpl.has(r.impl)) problems.push(`a second ${r.impl} record of ${r.figure} was ignored`);
    else byImpl.set(r.impl, r);
  }
  return index;
}

function get(index: Index, figure: string, impl: Impl): BenchRecord | undefined {
  return index.get(figure)?.get(impl);
}

/** The C floor a figure is compared with: OpenCL C for OpenCL figures, the driver-API C program otherwise. */
function floorOf(figure: string): Impl {
  return figure.startsWith("opencl.") ? "opencl-c" : "c";
}

/** The peer (CuPy or PyTorch) with the best median for a figure, in cudeno's unit. */
function bestPeer(index: Index, figure: string): BenchRecord | undefined {
  const unit = get(index, figure, "cudeno")?.unit;
  const peers = PEERS.map((p) => get(index, figure, p)).filter((r): r is BenchRecord =>
    !!r && r.unit === unit
  );
  const score = (r: BenchRecord) => (r.better === "lower" ? -1 : 1) * median(r.samples);
  return peers.sort((a, b) => score(b) - score(a))[0];
}

/** cudeno's median over the reference's, where both exist in the same unit. */
function ratio(cudeno: BenchRecord | undefined, ref: BenchRecord | undefined): number | undefined {
  if (!cudeno || !ref || cudeno.unit !== ref.unit) return undefined;
  return median(cudeno.samples) / median(ref.samples);
}

// ---- targets

/** What a target compares cudeno's median with: another impl's figure, cudeno's own other figure, or a time. */
type Reference = { kind: "impl"; impl: Impl } | { kind: "own"; figure: string } | { kind: "ms" } | {
  kind: "us";
};

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
  // 100 in-place array ops replayed ≥ 5× faster than eager (PyTorch's CUDAGraph replay beside it).
  { applies: is("graph.add1.replay"), conditions: [{ ref: own("graph.add1.eager"), op: "<=", bound: 0.2 }] },
  {
    applies: is("sort.f32.2^26"),
    conditions: [{ ref: impl("torch"), op: ">=", bound: 1 }, { ref: impl("cupy"), op: ">=", bound: 0.6 }],
  },
];

interface Verdict {
  condition: Condition;
  /** The ratio (or, for a time target, cudeno's median in ms); undefined where something is missing. */
  value?: number;
  met: boolean | null;
  missing?: string;
}

function describe(c: Condition): string {
  const op = { "<=": "≤", "<": "<", ">=": "≥", "within": "within" }[c.op];
  if (c.ref.kind === "ms" || c.ref.kind === "us") {
    return `${op} ${c.bound} ${c.ref.kind === "us" ? "µs" : "ms"}`;
  }
  const what = c.ref.kind === "impl" ? NAMES[c.ref.impl] : `own ${c.ref.figure}`;
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
  const other = ref.kind === "impl" ? get(index, figure, ref.impl) : get(index, ref.figure, "cudeno");
  const name = ref.kind === "impl" ? `${ref.impl} record` : `cudeno ${ref.figure} record`;
  if (!other) return `no ${name}`;
  return ratio(cudeno, other) ?? `${name} is in ${other.unit}, cudeno's in ${cudeno.unit}`;
}

function evaluate(index: Index, figure: string, condition: Condition): Verdict {
  const value = referenceValue(index, figure, condition.ref);
  if (typeof value === "string") return { condition, met: null, missing: value };
  return { condition, value, met: compare(condition.op, value, condition.bound) };
}

function verdictsFor(index: Index, figure: string): Verdict[] {
  const target = TARGETS.find((t) => t.applies(figure));
  return target ? target.conditions.map((c) => evaluate(index, figure, c)) : [];
}

/** Met only when every condition is; unknown when none fails but one could not be judged. */
function overall(verdicts: readonly Verdict[]): boolean | null | undefined {
  if (verdicts.length === 0) return undefined;
  if (verdicts.some((v) => v.met === false)) return false;
  return verdicts.every((v) => v.met === true) ? true : null;
}

// ---- Markdown

const GROUPS: { title: string; has: (figure: string) => boolean }[] = [
  {
    title: "Launch",
    has: (f) =>
      f.startsWith("launch.") || f.startsWith("small.") || f.startsWith("jit.") && f.endsWith(".async"),
  },
  { title: "Host–device copies", has: (f) => f.startsWith("copy.") },
  { title: "End to end", has: (f) => f.startsWith("vadd.") || f.startsWith("start.") },
  {
    title: "Compile, load, cache",
    has: (f) => ["nvrtc.", "module.", "cache.", "jit."].some((p) => f.startsWith(p)),
  },
  {
    title: "Device memory",
    has: (f) =>
      ["d2d.", "elementwise.", "reduce.", "softmax.", "join.", "scan."].some((p) => f.startsWith(p)),
  },
  { title: "Matrix multiply", has: (f) => f.startsWith("matmul.") },
  { title: "Sorting", has: (f) => f.startsWith("sort.") || f.startsWith("argsort.") },
  { title: "OpenCL", has: (f) => f.startsWith("opencl.") },
  { title: "Graphs", has: (f) => f.startsWith("graph.") },
  { title: "Fusion", has: (f) => f.startsWith("fuse.") },
  { title: "Other", has: () => true },
];

function groupsOf(index: Index): { title: string; figures: string[] }[] {
  const taken = new Set<string>();
  return GROUPS.map((g) => {
    const figures = [...index.keys()].filter((f) => !taken.has(f) && g.has(f));
    figures.forEach((f) => taken.add(f));
    return { title: g.title, figures };
  }).filter((g) => g.figures.length > 0);
}

function fmt(x: number): string {
  const a = Math.abs(x);
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  return a >= 1 ? x.toFixed(2) : x.toPrecision(3);
}

const times = (r: number | undefined) => (r === undefined ? "–" : `${r.toFixed(2)}×`);

function verdictText(v: Verdict): string {
  const kind = v.condition.ref.kind;
  const value = v.value === undefined
    ? ""
    : kind === "ms" || kind === "us"
    ? ` (${fmt(v.value)} ${kind === "us" ? "µs" : "ms"})`
    : ` (${v.value.toFixed(2)}×)`;
  return `${describe(v.condition)}${value}`;
}

function metText(verdicts: readonly Verdict[]): string {
  const o = overall(verdicts);
  if (o === undefined) return "";
  if (o) return "yes";
  if (o === false) return "**no**";
  return `? ${[...new Set(verdicts.filter((v) => v.missing).map((v) => v.missing))].join("; ")}`;
}

function row(index: Index, figure: string, impls: readonly Impl[]): string {
  const byImpl = index.get(figure)!;
  const { unit, better } = [...byImpl.values()][0];
  const cells = impls.map((i) => {
    const r = byImpl.get(i);
    if (!r) return "–";
    return `${fmt(bestSample(r))} / ${fmt(median(r.samples))}${r.unit === unit ? "" : ` ${r.unit}`}`;
  });
  const cudeno = byImpl.get("cudeno");
  const peer = bestPeer(index, figure);
  const vsPeer = peer && cudeno ? `${times(ratio(cudeno, peer))} ${NAMES[peer.impl]}` : "–";
  const verdicts = verdictsFor(index, figure);
  const target = verdicts.map(verdictText).join("; ") || "–";
  return `| ${figure} | ${unit} ${better === "lower" ? "↓" : "↑"} | ${cells.join(" | ")} | ${
    times(ratio(cudeno, byImpl.get(floorOf(figure))))
  } | ` +
    `${vsPeer} | ${target} | ${metText(verdicts)} |`;
}

function table(index: Index, figures: readonly string[]): string {
  const impls = IMPLS.filter((i) => figures.some((f) => index.get(f)!.has(i)));
  const head = `| figure | unit | ${impls.map((i) => `${NAMES[i]} best / median`).join(" | ")} | ` +
    "cudeno ÷ C | cudeno ÷ best peer | target | met |";
  const rule = `|${" --- |".repeat(impls.length + 6)}`;
  return [head, rule, ...figures.map((f) => row(index, f, impls))].join("\n");
}

/** Text from a record or a log, safe inside a Markdown table cell or list item. */
function mdText(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("<", "&lt;");
}

function producerTable(producers: readonly ProducerStatus[]): string {
  const rows = producers.map((p) =>
    `| ${p.name} | ${p.state === "ok" ? "ok" : `**${p.state}**`} | ${p.records} | ` +
    `${p.seconds === undefined ? "–" : p.seconds.toFixed(1)} | ${mdText(p.reason ?? "")} |`
  );
  return ["| producer | state | records | seconds | reason |", "| --- | --- | --- | --- | --- |", ...rows]
    .join("\n");
}

/** Warnings that must not be missed: no cudeno figures at all, and every producer that did not run cleanly. */
function warnings(results: Results, index: Index): string[] {
  const out: string[] = [];
  const cudenoRecords = results.records.filter((r) => r.impl === "cudeno").length;
  if (cudenoRecords === 0) {
    const ran = results.producers.some((p) => p.name === "cudeno");
    const why = ran ? "see cudeno below" : "the cudeno producer did not run";
    out.push(`**No cudeno records in this run** (${why}): no target below can be judged.`);
  }
  for (const p of results.producers.filter((p) => p.state !== "ok")) {
    out.push(`**${p.name} ${p.state}**: ${mdText(p.reason ?? "no reason given")}`);
  }
  if (index.size === 0) out.push("**No records at all.**");
  return out.map((w) => `> ${w}`);
}

function summary(index: Index): string {
  const all = [...index.keys()].map((f) => overall(verdictsFor(index, f))).filter((o) => o !== undefined);
  const met = all.filter((o) => o === true).length;
  const missed = all.filter((o) => o === false).length;
  return `Targets: ${met} met, ${missed} missed, ${
    all.length - met - missed
  } not judged (a record is missing).`;
}

function notes(index: Index): string {
  const lines: string[] = [];
  for (const [figure, byImpl] of index) {
    for (const r of byImpl.values()) {
      if (r.note) {
        lines.push(`- ${figure}, ${NAMES[r.impl]}: ${mdText(r.note)} (${r.samples.length} samples)`);
      }
    }
  }
  return lines.join("\n");
}

export function renderMarkdown(results: Results, problems: readonly string[] = []): string {
  const allProblems = [...problems];
  const index = indexRecords(results.records, allProblems);
  const versions = Object.entries(results.versions).map(([k, v]) => `${k} ${v ?? "(not found)"}`).join(", ");
  const parts = [
    "# cudeno benchmark results",
    `${results.date} · GPU: ${results.gpu ?? "none found"} · driver: ${
      results.driver ?? "–"
    }\n\n${versions}` +
    (results.placement ? `; ${results.placement}` : ""),
    ...warnings(results, index),
    ...allProblems.map((p) => `> ${p}`),
    "Each impl's cell: best sample / median (best is the lowest for ↓ figures, the highest for ↑ ones). " +
    "Ratios are of medians, cudeno's over the reference's, from this one run; C means OpenCL C for opencl.* " +
    "figures.",
    summary(index),
    "![cudeno ÷ C](ratio-c.svg)\n\n![cudeno ÷ best peer](ratio-peer.svg)",
    ...groupsOf(index).map((g) => `## ${g.title}\n\n${table(index, g.figures)}`),
    `## Producers\n\n${producerTable(results.producers)}`,
    `## How each was measured\n\n${notes(index)}`,
  ];
  return parts.join("\n\n") + "\n";
}

// ---- SVG

interface Bar {
  label: string;
  ratio: number;
  better: Better;
  /** Where the target lies on this chart's scale, if the target refers to this chart's reference. */
  bound?: number;
  met: boolean | null;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const COLOURS = { met: "#2e7d32", missed: "#c62828", none: "#9e9e9e" };

function barColour(b: Bar): string {
  if (b.bound === undefined || b.met === null) return COLOURS.none;
  return b.met ? COLOURS.met : COLOURS.missed;
}

const LAYOUT = { width: 860, label: 230, value: 170, row: 24, top: 64, bottom: 36 };

function ticks(max: number): number[] {
  const step = max > 2 ? 0.5 : 0.25;
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

/** A horizontal bar chart of ratios, 1× dashed, each target a black tick on its bar. */
function barChart(title: string, subtitle: string, bars: readonly Bar[]): string {
  const { width, label, value, row, top, bottom } = LAYOUT;
  const plot = width - label - value - 16;
  const height = top + Math.max(bars.length, 1) * row + bottom;
  const xMax = Math.min(4, Math.max(1.25, ...bars.flatMap((b) => [b.ratio, b.bound ?? 0])) * 1.1);
  const x = (v: number) => label + (Math.min(v, xMax) / xMax) * plot;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="12" y="42" fill="#444">${escapeXml(subtitle)}</text>`,
  ];
  for (const t of ticks(xMax)) {
    const stroke = t === 1 ? `stroke="#000" stroke-dasharray="4 3"` : `stroke="#ddd"`;
    out.push(`<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${height - bottom + 4}" ${stroke}/>`);
    out.push(`<text x="${x(t)}" y="${height - bottom + 18}" text-anchor="middle">${t}×</text>`);
  }
  if (bars.length === 0) {
    out.push(
      `<text x="${label}" y="${top + 16}" fill="#c62828">No figure has both records in this run.</text>`,
    );
  }
  bars.forEach((b, i) => out.push(...barElements(b, top + i * row, x, b.ratio > xMax)));
  out.push("</svg>");
  return out.join("\n") + "\n";
}

function barElements(b: Bar, y: number, x: (v: number) => number, clipped: boolean): string[] {
  const { label, row } = LAYOUT;
  const arrow = b.better === "lower" ? "lower is better" : "higher is better";
  const els = [
    `<text x="${label - 8}" y="${y + row / 2 + 4}" text-anchor="end">${escapeXml(b.label)}</text>`,
    `<rect x="${label}" y="${y + 5}" width="${(x(b.ratio) - label).toFixed(1)}" height="${row - 10}" ` +
    `fill="${barColour(b)}"/>`,
    `<text x="${Math.max(x(b.ratio), x(b.bound ?? 0)) + 8}" y="${y + row / 2 + 4}">${clipped ? "» " : ""}${
      b.ratio.toFixed(2)
    }× ` +
    `(${arrow})</text>`,
  ];
  if (b.bound !== undefined) {
    els.push(
      `<line x1="${x(b.bound)}" y1="${y + 1}" x2="${x(b.bound)}" y2="${y + row - 1}" ` +
        `stroke="#000" stroke-width="3"/>`,
    );
  }
  return els;
}

/** One bar per figure that cudeno and `refOf(figure)` both have, marked with the target that refers to it. */
function barsAgainst(index: Index, refOf: (figure: string) => BenchRecord | undefined): Bar[] {
  const bars: Bar[] = [];
  for (const { figures } of groupsOf(index)) {
    for (const figure of figures) {
      const cudeno = get(index, figure, "cudeno");
      const ref = refOf(figure);
      const r = ratio(cudeno, ref);
      if (r === undefined || !ref) continue;
      const verdict = verdictsFor(index, figure).find((v) =>
        v.condition.ref.kind === "impl" && v.condition.ref.impl === ref.impl
      );
      const label = `${figure}${ref.impl === "c" ? "" : ` vs ${NAMES[ref.impl]}`}`;
      bars.push({
        label,
        ratio: r,
        better: cudeno!.better,
        bound: verdict?.condition.bound,
        met: verdict?.met ?? null,
      });
    }
  }
  return bars;
}

export function renderCharts(results: Results): { name: string; svg: string }[] {
  const index = indexRecords(results.records, []);
  const legend = "cudeno's median ÷ the reference's; green: target met, red: missed, grey: no target " +
    "against this reference; black tick: the target";
  return [
    {
      name: "ratio-c.svg",
      svg: barChart("cudeno ÷ C", legend, barsAgainst(index, (f) => get(index, f, floorOf(f)))),
    },
    {
      name: "ratio-peer.svg",
      svg: barChart(
        "cudeno ÷ best peer (CuPy or PyTorch)",
        legend,
        barsAgainst(index, (f) => bestPeer(index, f)),
      ),
    },
  ];
}

// ---- files

/** Reads results.json, keeping the valid records and saying what was dropped. */
export function parseResults(text: string): { results: Results; problems: string[] } {
  const raw = JSON.parse(text) as Partial<Results> & { records?: unknown[] };
  const problems: string[] = [];
  const records: BenchRecord[] = [];
  for (const [i, value] of (raw.records ?? []).entries()) {
    const r = toRecord(value);
    if (typeof r === "string") problems.push(`record ${i} was dropped: ${r}`);
    else records.push(r);
  }
  const results: Results = {
    date: raw.date ?? "(no date)",
    gpu: raw.gpu ?? null,
    driver: raw.driver ?? null,
    versions: raw.versions ?? {},
    ...(raw.placement ? { placement: raw.placement } : {}),
    producers: raw.producers ?? [],
    records,
  };
  return { results, problems };
}

/** Text as `deno fmt` would leave it (aligned tables, indented SVG), so that committed results pass
 * `deno fmt --check`; unformatted, with a warning, if deno fmt cannot be run. */
async function formatted(text: string, ext: "md" | "svg"): Promise<string> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", `--ext=${ext}`, "-"],
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  if (code === 0) return new TextDecoder().decode(stdout);
  console.error(
    `report: deno fmt failed, the .${ext} file is left unformatted: ${new TextDecoder().decode(stderr)}`,
  );
  return text;
}

/** Writes RESULTS.md and the charts into outDir; returns the paths written. */
export async function writeReport(
  resultsPath: string,
  outDir: string = dirname(resultsPath),
): Promise<string[]> {
  const { results, problems } = parseResults(await Deno.readTextFile(resultsPath));
  await Deno.mkdir(outDir, { recursive: true });
  const charts = await Promise.all(
    renderCharts(results).map(async (c) => ({ name: c.name, text: await formatted(c.svg, "svg") })),
  );
  const files = [
    { name: "RESULTS.md", text: await formatted(renderMarkdown(results, problems), "md") },
    ...charts,
  ];
  const written: string[] = [];
  for (const f of files) {
    const path = join(outDir, f.name);
    await Deno.writeTextFile(path, f.text);
    written.push(path);
  }
  return written;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string" } },
    allowPositionals: true,
  });
  const resultsPath = resolve(positionals[0] ?? fileURLToPath(new URL("results.json", import.meta.url)));
  const written = await writeReport(resultsPath, values.out ? resolve(values.out) : dirname(resultsPath));
  console.error(`report: wrote ${written.join(", ")}`);
}

if (import.meta.main) await main();
