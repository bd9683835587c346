/**
 * RESULTS.md from a run's results: the run's header and warnings, one table per group of figures (each
 * impl's best sample and median, cudeno's ratios, its targets and whether they are met), the producers'
 * states and how each figure was measured.
 * @module
 */
import { bestSample, type Impl, IMPLS, median, type ProducerStatus, type Results } from "./records.ts";
import {
  bestPeer,
  describe,
  floorOf,
  type Index,
  indexRecords,
  NAMES,
  overall,
  ratio,
  type Verdict,
  verdictsFor,
} from "./targets.ts";

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
  { title: "Gradients", has: (f) => f.startsWith("grad.") },
  { title: "Other", has: () => true },
];

export function groupsOf(index: Index): { title: string; figures: string[] }[] {
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
