/**
 * Build logs that point at the user's file: OpenCL drivers compile a copy of the source and name that
 * copy in their diagnostics (PoCL: `error: /root/.cache/pocl/kcache/tempfile_JU04m7.cl:3:27: ...`;
 * NVIDIA: `<kernel>:3:27: error: ...`; AMD: `/tmp/OCL1234T5.cl:3:27: ...`). The source is passed
 * unchanged, so lines and columns are the file's own: only the name is replaced, PoCL's lines are put
 * in the usual `file:line:column: error: message` order, and a diagnostic repeated word for word (PoCL
 * reports each twice) is shown once.
 *
 * @module
 */

/** The names drivers give their copy of the source, before `:line:column`. */
const DRIVER_COPY = /(?:[^\s:]*[\\/])?(?:tempfile_\w+\.cl|OCL\d+T\d+\.cl)(?=:\d+:\d+)|<kernel>(?=:\d+:\d+)/g;
/** A diagnostic in the usual form, `FILE:LINE:COLUMN: error: message`. */
const DIAGNOSTIC = /:\d+:\d+: (error|warning|note)/;
/** PoCL's form: `error: FILE:LINE:COLUMN: message`. */
const POCL_LINE = /^(error|warning|note): (.+?:\d+:\d+): (.*)$/;

/**
 * The build log with the driver's name for its copy of the source replaced by `filename`.
 *
 * @example
 * ```ts
 * import { pointAtUserFile } from "./build_log.ts";
 * const log = "error: /root/.cache/pocl/kcache/tempfile_JU04m7.cl:3:27: expected ';' at end of declaration";
 * console.log(pointAtUserFile(log, "saxpy.cl")); // "saxpy.cl:3:27: error: expected ';' at end of declaration"
 * ```
 */
export function pointAtUserFile(log: string, filename: string): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of log.split("\n")) {
    const named = line.replace(DRIVER_COPY, filename.replaceAll("$", "$$$$"));
    const m = POCL_LINE.exec(named);
    const out = m === null ? named : `${m[2]}: ${m[1]}: ${m[3]}`;
    if (DIAGNOSTIC.test(out)) {
      if (seen.has(out)) continue;
      seen.add(out);
    }
    lines.push(out);
  }
  return lines.join("\n");
}
