/**
 * What happens to the arrays after a run: `--out NAME=PATH.npy` writes one as a NumPy file,
 * `--out NAME=PATH.png` draws a 2-D one as an image (`--colormap`, `--log`), `--shape` gives their shapes, and
 * every other array the kernel may have written (a pointer that is not `const`) is summarized.
 *
 * @module
 */

import { fromBfloat16Bits } from "../kernel/bfloat16.ts";
import type { BoundArg, BoundArgs } from "./bind.ts";
import { evaluateSizes } from "./geometry.ts";
import { writeNpy } from "../kernel/npy.ts";
import { COLOR_MAPS, colorize, type ColorMap, encodePng } from "./png.ts";
import { UsageError } from "./usage_error.ts";
import { splitAssignment } from "./values.ts";
import { summarize, type Summary } from "./summary.ts";
import type { DType } from "../kernel/dtype.ts";

/**
 * The checked `--out`, `--shape` and `--colormap` flags: which array goes to which file, each array's
 * shape, and the colour map of PNG files.
 *
 * @example
 * ```ts
 * import { type OutputPlan, planOutputs } from "./outputs.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__global__ void f(float *img, int h, int w) {}", "cuda");
 * const bound = bindArgs(k, ["h=4", "w=6", "img=zeros(h*w)"]);
 * const plan: OutputPlan = planOutputs({ out: ["img=img.png"], shape: ["h,w"] }, bound);
 * console.log(plan.shapes.get("img")); // [4, 6]
 * ```
 */
export interface OutputPlan {
  /** The file each written array goes to, by parameter name. */
  readonly files: ReadonlyMap<string, string>;
  /** The shape of every array argument, by parameter name. */
  readonly shapes: ReadonlyMap<string, readonly number[]>;
  /** The colour map of PNG files. */
  readonly colormap: ColorMap;
  /** Whether PNG colours follow the values (`linear`) or their logarithm (`log`). */
  readonly scale: "linear" | "log";
}

/** The output flags as given. */
export interface OutputFlags {
  /** Each `--out NAME=PATH`. */
  readonly out: readonly string[];
  /** Each `--shape [NAME=]D,D,...`. */
  readonly shape: readonly string[];
  /** `--colormap NAME`. */
  readonly colormap?: string;
  /** `--log`. */
  readonly log?: boolean;
}

/**
 * One array after the run: its name, type and shape, the file it was written to (if any), and a summary.
 *
 * @example
 * ```ts
 * import type { OutputReport } from "./outputs.ts";
 * import { summarize } from "./summary.ts";
 * const report: OutputReport = { name: "y", dtype: "float32", shape: [3], summary: summarize(new Float32Array(3)) };
 * console.log(report.summary.max); // 0
 * ```
 */
export interface OutputReport {
  /** The parameter's name. */
  readonly name: string;
  /** The element type. */
  readonly dtype: DType;
  /** The shape. */
  readonly shape: readonly number[];
  /** The file it was written to. */
  readonly file?: string;
  /** First values, range, mean, NaN count and checksum. */
  readonly summary: Summary;
}

function arrays(bound: BoundArgs): Map<string, Extract<BoundArg, { kind: "array" }>> {
  const out = new Map<string, Extract<BoundArg, { kind: "array" }>>();
  for (const a of bound.args) if (a.kind === "array") out.set(a.param.name, a);
  return out;
}

function arrayNamed(
  name: string,
  option: string,
  text: string,
  known: ReadonlyMap<string, unknown>,
): void {
  if (!known.has(name)) {
    const list = [...known.keys()].join(", ") || "none";
    throw new UsageError(
      `Cannot use ${option} ${text}: ${name} is not an array parameter of the kernel (its array parameters are ${list})`,
    );
  }
}

function parentFolder(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
}

function checkFolder(path: string, name: string): void {
  const folder = parentFolder(path);
  let isFolder = false;
  try {
    isFolder = Deno.statSync(folder).isDirectory;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw writeError(error, name, path);
  }
  if (!isFolder) {
    throw new UsageError(
      `Cannot write ${name} to ${path}: there is no folder ${folder}; create it or choose another path`,
    );
  }
}

function writeError(error: unknown, name: string, path: string): UsageError {
  const detail = error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
    ? "writing there is not permitted; run with --allow-write (or -A), or choose another path"
    : error instanceof Error
    ? error.message
    : String(error);
  return new UsageError(`Cannot write ${name} to ${path}: ${detail}`, { cause: error });
}

/**
 * Checks the output flags against the bound arguments before anything runs: each `--out` names an
 * array parameter and a `.npy` or `.png` path in an existing folder, each shape holds its array's
 * elements, and each PNG gets a 2-D array. An unnamed `--shape` applies to every `--out` array; an
 * array with no `--shape` keeps its generator's or file's shape.
 *
 * @param flags The output flags.
 * @param bound The bound arguments (sizes may use the scalars).
 * @returns The plan.
 * @throws {UsageError} If a flag names no array parameter, a path has another extension or no folder,
 * a shape does not fit, a PNG's array is not 2-D, or the colour map is unknown.
 *
 * @example
 * ```ts
 * import { planOutputs } from "./outputs.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__global__ void f(float *y, int n) {}", "cuda");
 * const plan = planOutputs({ out: ["y=y.npy"], shape: [] }, bindArgs(k, ["n=8", "y=zeros(2, 4)"]));
 * console.log(plan.files.get("y"), plan.shapes.get("y")); // "y.npy" [2, 4]
 * ```
 */
export function planOutputs(flags: OutputFlags, bound: BoundArgs): OutputPlan {
  const known = arrays(bound);
  const colormap = (flags.colormap ?? "viridis") as ColorMap;
  if (!COLOR_MAPS.includes(colormap)) {
    throw new UsageError(`Cannot use --colormap ${flags.colormap}: use one of ${COLOR_MAPS.join(", ")}`);
  }
  const files = new Map<string, string>();
  for (const text of flags.out) {
    const { name, value } = splitAssignment(text, "--out");
    arrayNamed(name, "--out", text, known);
    if (!/\.(npy|png)$/i.test(value)) {
      throw new UsageError(
        `Cannot use --out ${text}: give a path ending in .npy (a NumPy array) or .png (an image of a 2-D array)`,
      );
    }
    checkFolder(value, name);
    files.set(name, value);
  }
  const given = new Map<string, { shape: number[]; text: string }>();
  for (const text of flags.shape) {
    const sizes = { most: 64, least: 0 };
    if (text.includes("=")) {
      const { name, value } = splitAssignment(text, "--shape");
      arrayNamed(name, "--shape", text, known);
      given.set(name, { shape: evaluateSizes(value, "--shape", bound.env, sizes), text });
    } else if (files.size === 0) {
      throw new UsageError(
        `Cannot use --shape ${text} without --out: name the array, as in --shape NAME=${text}, or write it with --out NAME=PATH`,
      );
    } else {
      const shape = evaluateSizes(text, "--shape", bound.env, sizes);
      for (const name of files.keys()) if (!given.has(name)) given.set(name, { shape, text });
    }
  }
  const shapes = new Map<string, readonly number[]>();
  for (const [name, a] of known) {
    const chosen = given.get(name);
    const shape = chosen?.shape ?? a.shape;
    const count = shape.reduce((p, n) => p * n, 1);
    if (chosen !== undefined && count !== a.data.length) {
      throw new UsageError(
        `Cannot use --shape ${chosen.text} for ${name}: it has ${a.data.length} elements, but ${
          shape.join("×")
        } is ${count}; give sizes whose product is ${a.data.length}`,
      );
    }
    const file = files.get(name);
    if (file !== undefined && /\.png$/i.test(file) && (shape.length !== 2 || count === 0)) {
      throw new UsageError(
        `Cannot write ${name} to ${file}: a PNG needs a non-empty 2-D array, but ${name} has shape [${
          shape.join(", ")
        }]; give --shape ${name}=H,W`,
      );
    }
    shapes.set(name, shape);
  }
  return { files, shapes, colormap, scale: flags.log === true ? "log" : "linear" };
}

function pngBytes(
  a: Extract<BoundArg, { kind: "array" }>,
  shape: readonly number[],
  plan: OutputPlan,
): Uint8Array {
  const [height, width] = shape as [number, number];
  const values = a.param.dtype === "bfloat16"
    ? Array.from(a.data as Uint16Array, fromBfloat16Bits)
    : a.data as ArrayLike<number | bigint>;
  return encodePng(colorize(values, width, height, { map: plan.colormap, scale: plan.scale }));
}

/**
 * Writes the planned files and summarizes the arrays: every array written to a file, and every other
 * array the kernel may have changed (a pointer that is not `const`).
 *
 * @param plan The checked output flags.
 * @param bound The arguments, holding the arrays as copied back from the device.
 * @returns One report per array, in parameter order.
 * @throws {UsageError} If a file cannot be written.
 *
 * @example
 * ```ts
 * import { planOutputs, writeOutputs } from "./outputs.ts";
 * import { bindArgs } from "./bind.ts";
 * import { parseKernels } from "../kernel/signature.ts";
 * const [k] = parseKernels("__global__ void f(float *y) {}", "cuda");
 * const bound = bindArgs(k, ["y=ones(4)"]);
 * console.log(writeOutputs(planOutputs({ out: [], shape: [] }, bound), bound)[0].summary.mean); // 1
 * ```
 */
export function writeOutputs(plan: OutputPlan, bound: BoundArgs): OutputReport[] {
  const reports: OutputReport[] = [];
  for (const a of arrays(bound).values()) {
    const name = a.param.name;
    const file = plan.files.get(name);
    if (file === undefined && a.param.isConst) continue;
    const shape = plan.shapes.get(name)!;
    const dtype = a.param.dtype!;
    if (file !== undefined) {
      const bytes = /\.png$/i.test(file) ? pngBytes(a, shape, plan) : writeNpy(a.data, [...shape], dtype);
      try {
        Deno.writeFileSync(file, bytes);
      } catch (error) {
        throw writeError(error, name, file);
      }
    }
    reports.push({ name, dtype, shape, file, summary: summarize(a.data, dtype) });
  }
  return reports;
}

/**
 * A number in at most 6 significant digits (integers as they are).
 *
 * @example
 * ```ts
 * import { formatNumber } from "./outputs.ts";
 * console.log(formatNumber(1 / 3), formatNumber(1048576)); // "0.333333" "1048576"
 * ```
 */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return Number.isFinite(value) ? String(Number(value.toPrecision(6))) : String(value);
}

/**
 * One line for one output: where it was written, or its first values, range, mean and checksum.
 *
 * @example
 * ```ts
 * import { formatOutput } from "./outputs.ts";
 * import { summarize } from "./summary.ts";
 * const line = formatOutput({ name: "y", dtype: "float32", shape: [2], summary: summarize(new Float32Array([1, 2])) });
 * console.log(line); // "y: float32 [2]  first 1 2  min 1  max 2  mean 1.5  checksum ..."
 * ```
 */
export function formatOutput(report: OutputReport): string {
  const head = `${report.name}: ${report.dtype} [${report.shape.join(", ")}]`;
  if (report.file !== undefined) return `${head}  written to ${report.file}`;
  const s = report.summary;
  const first = s.first.map(formatNumber).join(" ") +
    (report.shape.reduce((p, n) => p * n, 1) > 8 ? " ..." : "");
  const nans = s.nans > 0 ? `  NaN ${s.nans}` : "";
  return `${head}  first ${first}  min ${formatNumber(s.min)}  max ${formatNumber(s.max)}  mean ${
    formatNumber(s.mean)
  }${nans}  checksum ${s.checksum}`;
}
