/**
 * Line plots of 1-D arrays as SVG (`ga.plot`): a training loss, a signal, several series against their
 * index, with axes, ticks at round numbers, a title, axis labels and a legend.
 *
 * @module
 */

import { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { describe } from "../core/describe.ts";
import { checkOptions } from "../../kernel/options.ts";
import { Picture } from "./picture.ts";

/** Options of {@link plot}. */
export interface PlotOptions {
  /** Above the plot. Default: none. */
  readonly title?: string;
  /** Under the horizontal axis. Default: none. */
  readonly xlabel?: string;
  /** Beside the vertical axis. Default: none. */
  readonly ylabel?: string;
  /** One name per series, shown in a legend. Default: no legend. */
  readonly labels?: readonly string[];
  /** The vertical axis in powers of ten (every value must be positive). Default false. */
  readonly logy?: boolean;
  /** Pixels. Default 640. */
  readonly width?: number;
  /** Pixels. Default 360. */
  readonly height?: number;
}

/** matplotlib's default colours. */
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
const MARGIN = { left: 64, right: 16, top: 32, bottom: 48 };

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Round tick values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten, about five of them. */
function ticks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 5, power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(+t.toPrecision(12));
  return out;
}

const label = (
  v: number,
) => (Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : `${v}`);

/**
 * Draws 1-D arrays (or lists of numbers) as lines against their index, as an SVG {@link Picture}; a
 * plain object last is the options. NaN and infinite values leave a gap in their line.
 *
 * @throws {RangeError} for a series that is not 1-D or has no finite value, naming it; for `logy` with a
 *   value ≤ 0; for a labels list of another length than the series.
 * @throws {TypeError} for no series, or an argument that is neither a series nor the last options object.
 * @example
 * ```ts
 * import * as ga from "@cudeno/cudeno/array";
 * const losses = [2.3, 1.1, 0.7, 0.5, 0.42, 0.4];
 * ga.plot(losses, { title: "training loss", xlabel: "epoch", logy: true }); // drawn by deno jupyter
 * ga.plot(ga.sin(ga.linspace(0, 6.28, 100)), ga.cos(ga.linspace(0, 6.28, 100)), { labels: ["sin", "cos"] });
 * ```
 */
export function plot(...args: (GPUArray | readonly number[] | PlotOptions)[]): Picture {
  const last = args.at(-1);
  const options = last !== undefined && !(last instanceof GPUArray) && !Array.isArray(last)
    ? args.pop() as PlotOptions
    : undefined;
  checkOptions(options, "plot", '{ title: "loss", logy: true }', [
    "title",
    "xlabel",
    "ylabel",
    "labels",
    "logy",
    "width",
    "height",
  ]);
  if (args.length === 0) {
    throw new TypeError("Cannot plot nothing: pass one or more 1-D arrays or lists of numbers");
  }
  const series = args.map((s, i): number[] => {
    if (Array.isArray(s)) return s.map(Number);
    if (!(s instanceof GPUArray)) {
      throw new TypeError(
        `Cannot plot argument ${i}, ${describe(s)}: pass 1-D arrays or lists of numbers, options last`,
      );
    }
    if (s.ndim !== 1) {
      throw new RangeError(
        `Cannot plot series ${i} of shape ${showShape(s.shape)}: it must be 1-D (ravel() it)`,
      );
    }
    return Array.from(s.astype("float32").get() as Float32Array);
  });
  const logy = options?.logy ?? false;
  const ys = series.map((s) => s.map((v) => (logy ? Math.log10(v) : v)));
  series.forEach((s, i) => {
    if (logy && s.some((v) => v <= 0)) {
      throw new RangeError(`Cannot plot series ${i} with logy: it has values ≤ 0, which have no logarithm`);
    }
    if (!s.some(Number.isFinite)) throw new RangeError(`Cannot plot series ${i}: it has no finite value`);
  });
  const labels = options?.labels;
  if (labels !== undefined && labels.length !== series.length) {
    throw new RangeError(
      `Cannot plot ${series.length} series with ${labels.length} labels: give one per series`,
    );
  }
  const width = options?.width ?? 640, height = options?.height ?? 360;
  const finite = ys.flat().filter(Number.isFinite);
  let lo = Math.min(...finite), hi = Math.max(...finite);
  if (hi === lo) [lo, hi] = [lo - 1, hi + 1];
  const n = Math.max(...series.map((s) => s.length)), xHi = Math.max(1, n - 1);
  const plotW = width - MARGIN.left - MARGIN.right, plotH = height - MARGIN.top - MARGIN.bottom;
  const px = (i: number) => MARGIN.left + (i / xHi) * plotW;
  const py = (v: number) => MARGIN.top + (1 - (v - lo) / (hi - lo)) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>`,
  ];
  for (const t of ticks(lo, hi)) {
    const y = py(t).toFixed(1);
    parts.push(`<line x1="${MARGIN.left - 4}" y1="${y}" x2="${MARGIN.left}" y2="${y}" stroke="#444"/>`);
    parts.push(
      `<text x="${MARGIN.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${
        logy ? `1e${t}` : label(t)
      }</text>`,
    );
  }
  for (const t of ticks(0, xHi).filter(Number.isInteger)) {
    const x = px(t).toFixed(1), bottom = MARGIN.top + plotH;
    parts.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 4}" stroke="#444"/>`);
    parts.push(`<text x="${x}" y="${bottom + 16}" text-anchor="middle">${label(t)}</text>`);
  }
  ys.forEach((s, k) => {
    // A run of finite values is one polyline; a NaN or an infinity ends it.
    let run: string[] = [];
    const flush = () => {
      if (run.length > 0) {
        parts.push(
          `<polyline fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.5" points="${
            run.join(" ")
          }"/>`,
        );
      }
      run = [];
    };
    s.forEach((v, i) => (Number.isFinite(v) ? run.push(`${px(i).toFixed(1)},${py(v).toFixed(1)}`) : flush()));
    flush();
  });
  if (options?.title !== undefined) {
    parts.push(
      `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escape(options.title)}</text>`,
    );
  }
  if (options?.xlabel !== undefined) {
    parts.push(
      `<text x="${MARGIN.left + plotW / 2}" y="${height - 8}" text-anchor="middle">${
        escape(options.xlabel)
      }</text>`,
    );
  }
  if (options?.ylabel !== undefined) {
    parts.push(
      `<text transform="translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${
        escape(options.ylabel)
      }</text>`,
    );
  }
  labels?.forEach((name, k) => {
    const y = MARGIN.top + 14 + 16 * k, x = MARGIN.left + plotW - 110;
    parts.push(
      `<line x1="${x}" y1="${y}" x2="${x + 20}" y2="${y}" stroke="${
        COLORS[k % COLORS.length]
      }" stroke-width="2"/>`,
    );
    parts.push(`<text x="${x + 26}" y="${y}" dominant-baseline="middle">${escape(name)}</text>`);
  });
  parts.push("</svg>");
  return new Picture("image/svg+xml", new TextEncoder().encode(parts.join("\n")));
}
