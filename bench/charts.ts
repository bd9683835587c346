/**
 * The report's two SVG bar charts of cudeno's ratios, against C (`ratio-c.svg`) and against the best
 * peer (`ratio-peer.svg`), each bar coloured by its target and marked where the target lies.
 * @module
 */
import type { BenchRecord, Better, Results } from "./records.ts";
import { groupsOf } from "./markdown.ts";
import { bestPeer, floorOf, get, type Index, indexRecords, NAMES, ratio, verdictsFor } from "./targets.ts";

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
