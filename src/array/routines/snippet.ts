/**
 * The user's C pieces of an `ElementwiseKernel` or `ReductionKernel` (the operation, map, reduce,
 * neutral and preamble) inside the code generated around them. Each piece is placed on lines of its
 * own behind a `#line 1 "<part.n>"` directive, so the compiler reports an error in it against the
 * piece itself, and {@link Placements.explain} turns such a report into the user's text with a caret
 * under the column (an `x[i]` the piece was bound to an operand through is mapped back to `x[i]`).
 *
 * @module
 */

import type { GPUArray } from "../core/gpuarray.ts";
import { showShape } from "../core/layout.ts";
import { cType, pointerParam } from "../../codegen/c.ts";
import type { KernelParam } from "../../kernel/signature.ts";
import type { Dialect } from "../../kernel/ctypes.ts";

/**
 * Which piece of a kernel's declaration some C came from, as an error names it.
 *
 * @example
 * ```ts
 * import type { SnippetPart } from "./snippet.ts";
 * const part: SnippetPart = "map"; // ReductionKernel's map option
 * ```
 */
export type SnippetPart = "operation" | "map" | "reduce" | "neutral" | "preamble";

/** One placed piece: the user's text, and for each offset of the placed code, the text's offset. */
interface Placed {
  readonly part: SnippetPart;
  readonly text: string;
  readonly code: string;
  readonly origin: (offset: number) => number;
}

/** One diagnostic of the compiler about a placed piece, in the user's text. */
interface Found {
  readonly placed: Placed;
  readonly line: number;
  readonly column: number | undefined;
  readonly message: string;
}

/** clang (OpenCL drivers): `<map.0>:1:6: error: message` (build_log.ts puts PoCL's in this order). */
const CLANG = /^<(\w+)\.(\d+)>:(\d+):(\d+): error: (.*)$/;
/** NVRTC: `<map.0>(1): error: message`, with no column. */
const NVRTC = /^<(\w+)\.(\d+)>\((\d+)\): error: (.*)$/;
/** An error at a line and column of the whole source (a driver that does not honour `#line`: NVIDIA's OpenCL). */
const PHYSICAL = /^(\S+?):(\d+):(\d+): error: (.*)$/;
/** An error in the generated code around the pieces, from NVRTC. */
const GENERATED = /^\S+\(\d+\): error/;
/** The directive that starts a placed piece, as {@link Placements.place} writes it. */
const DIRECTIVE = /^#line 1 "<(\w+)\.(\d+)>"$/;

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

function offsetOf(text: string, line: number, column: number): number | undefined {
  const lines = text.split("\n");
  if (line < 1 || line > lines.length) return undefined;
  let offset = 0;
  for (let l = 1; l < line; l++) offset += lines[l - 1]!.length + 1;
  return offset + Math.min(column - 1, lines[line - 1]!.length);
}

/**
 * The user's pieces placed into one generated source, numbered in the order they were placed; a
 * new `Placements` for each call of a kernel, since the source is generated (and compiled) inside the
 * call that first needs it.
 *
 * @example
 * ```ts
 * import { Placements } from "./snippet.ts";
 * const placements = new Placements();
 * const source = `float f(float a, float b) { return (${placements.place("reduce", "a + c")}); }`;
 * const error = Object.assign(new Error("build failed"), {
 *   log: "<reduce.0>:1:5: error: use of undeclared identifier 'c'",
 *   source,
 * });
 * console.log((placements.explain(error, "ReductionKernel r") as Error).message);
 * // Cannot compile ReductionKernel r: error in its reduce at line 1, column 5: use of undeclared identifier 'c'
 * //   a + c
 * //       ^
 * ```
 */
export class Placements {
  readonly #placed: Placed[] = [];

  /** `code` (the user's `text`, bound through `origin`) on lines of its own, named for the compiler. */
  place(part: SnippetPart, text: string, code = text, origin: (offset: number) => number = (o) => o): string {
    const n = this.#placed.push({ part, text, code, origin }) - 1;
    return `\n#line 1 "<${part}.${n}>"\n${code}\n#line 1 "<generated>"\n`;
  }

  /**
   * The error to throw for `error`, thrown while compiling a source these pieces were placed in: a
   * SyntaxError quoting each piece the compiler's log reports an error in, with a caret under the
   * column (the compiler's error is its `cause`), or `error` itself where the log names none.
   */
  explain(error: unknown, what: string): unknown {
    const log = (error as { log?: unknown } | null)?.log;
    if (this.#placed.length === 0 || typeof log !== "string") return error;
    const found: Found[] = [];
    const lines = log.split("\n");
    const source = (error as { source?: unknown }).source;
    const physical = typeof source === "string" ? this.#pieceLines(source) : undefined;
    let generated = 0;
    lines.forEach((line, i) => {
      const clang = CLANG.exec(line), nvrtc = clang === null ? NVRTC.exec(line) : null;
      const m = clang ?? nvrtc;
      if (m === null) {
        const p = PHYSICAL.exec(line);
        const at = p === null || p[1] === "<generated>" ? undefined : physical?.(Number(p[2]));
        if (at !== undefined) found.push(locate(at.placed, at.line, Number(p![3]), p![4]!));
        else if (p !== null || GENERATED.test(line)) generated++;
        return;
      }
      const placed = this.#placed[Number(m[2])];
      if (placed === undefined || placed.part !== m[1]) return;
      const codeLine = Number(m[3]);
      const column = clang !== null
        ? Number(clang[4])
        : nvrtcColumn(placed.code, codeLine, lines[i + 1], lines[i + 2], nvrtc![4]!);
      found.push(locate(placed, codeLine, column, clang?.[5] ?? nvrtc![4]!));
    });
    if (found.length === 0) return error;
    const seen = new Set<string>();
    const shown: string[] = [];
    for (const f of found) {
      const text = quote(f);
      if (seen.has(text)) continue; // a piece placed several times (unrolled) fails the same way each time
      seen.add(text);
      shown.push(text);
    }
    const more = generated === 0
      ? ""
      : `\n(and ${generated} error${
        generated === 1 ? "" : "s"
      } in the code generated around it: the compiler's log is this error's cause.log)`;
    return new SyntaxError(`Cannot compile ${what}: ${shown.join("\n")}${more}`, { cause: error });
  }

  /** For a line of the whole `source`, the placed piece it is in and the line within that piece. */
  #pieceLines(source: string): (line: number) => { placed: Placed; line: number } | undefined {
    const starts: { first: number; placed: Placed }[] = [];
    source.split("\n").forEach((text, i) => {
      const m = DIRECTIVE.exec(text);
      const placed = m === null ? undefined : this.#placed[Number(m[2])];
      if (placed !== undefined && placed.part === m![1]) starts.push({ first: i + 2, placed });
    });
    return (line) => {
      for (const { first, placed } of starts) {
        const within = line - first + 1;
        if (within >= 1 && within <= placed.code.split("\n").length) return { placed, line: within };
      }
      return undefined;
    };
  }
}

/** Where NVRTC, which gives no column, points: its caret where the log has one, else a quoted name. */
function nvrtcColumn(
  code: string,
  line: number,
  echo: string | undefined,
  caret: string | undefined,
  message: string,
): number | undefined {
  const text = code.split("\n")[line - 1] ?? "";
  if (echo !== undefined && caret !== undefined && /^\s*\^\s*$/.test(caret) && echo.endsWith(text)) {
    return caret.indexOf("^") - (echo.length - text.length) + 1;
  }
  const name = /"([A-Za-z_]\w*)"/.exec(message)?.[1];
  const at = name === undefined ? -1 : text.search(new RegExp(`\\b${name}\\b`));
  return at < 0 ? undefined : at + 1;
}

function locate(placed: Placed, line: number, column: number | undefined, message: string): Found {
  const offset = offsetOf(placed.code, line, column ?? 1);
  if (offset === undefined) return { placed, line, column, message };
  const at = position(placed.text, placed.origin(offset));
  return { placed, line: at.line, column: column === undefined ? undefined : at.column, message };
}

function quote(f: Found): string {
  const where = f.column === undefined ? `line ${f.line}` : `line ${f.line}, column ${f.column}`;
  const text = f.placed.text.split("\n")[f.line - 1] ?? "";
  const caret = f.column === undefined ? "" : `\n  ${text.slice(0, f.column - 1).replace(/[^\t]/g, " ")}^`;
  return `error in its ${f.placed.part} at ${where}: ${f.message}\n  ${text}${caret}`;
}

const escape = (name: string) => name.replace(/[$]/g, "\\$");

/**
 * A user's C snippet over declared parameters, bound to a generated kernel's operands.
 *
 * @example
 * ```ts
 * import { Placements, Snippet } from "./snippet.ts";
 * import { parseParameterList } from "../../kernel/signature.ts";
 * const op = new Snippet(parseParameterList("float *x, float *z, float a", "cuda"), "z[i] = a * x[i]", "operation");
 * const { locals, code } = op.bind(["p0[i]", "p1[i]"], ["s0"], ["p0", "p1"], "cuda", new Placements());
 * console.log(op.written, locals, code); // [false, true] "const float a = s0;" "...p1[i] = a * p0[i]..."
 * ```
 */
export class Snippet {
  readonly #params: readonly KernelParam[];
  readonly #text: string;
  readonly #part: SnippetPart;
  readonly #element: RegExp | undefined;
  /** For each pointer parameter: whether the snippet assigns to its element i. */
  readonly written: readonly boolean[];
  /** For each pointer parameter: whether the snippet uses it other than as `name[i]`. */
  readonly raw: readonly boolean[];

  constructor(params: readonly KernelParam[], text: string, part: SnippetPart) {
    this.#params = params;
    this.#text = text;
    this.#part = part;
    const pointers = params.filter((p) => p.pointer);
    this.written = pointers.map((p) =>
      new RegExp(`\\b${escape(p.name)}\\s*\\[\\s*i\\s*\\]\\s*([-+*/%&|^]|<<|>>)?=(?!=)`).test(text)
    );
    this.raw = pointers.map((p) => new RegExp(`\\b${escape(p.name)}\\b(?!\\s*\\[\\s*i\\s*\\])`).test(text));
    this.#element = pointers.length === 0
      ? undefined
      : new RegExp(`\\b(${pointers.map((p) => escape(p.name)).join("|")})\\s*\\[\\s*i\\s*\\]`, "g");
  }

  /**
   * The snippet with each `x[i]` bound to operand reference `ref[k]` and placed in `placements`, and
   * declarations that bind the scalars to `scalar[j]` and raw pointers to `pointer[k]`.
   */
  bind(
    ref: readonly string[],
    scalar: readonly string[],
    pointer: readonly string[],
    dialect: Dialect,
    placements: Placements,
  ): { locals: string; code: string } {
    const pointers = this.#params.filter((p) => p.pointer);
    // Pieces of the bound code: [offset in the code, offset in the text, whether an x[i] was replaced].
    const pieces: [number, number, boolean][] = [];
    let code = "", from = 0;
    for (const m of this.#element === undefined ? [] : this.#text.matchAll(this.#element)) {
      pieces.push([code.length, from, false]);
      code += this.#text.slice(from, m.index);
      pieces.push([code.length, m.index, true]);
      code += ref[pointers.findIndex((p) => p.name === m[1])]!;
      from = m.index + m[0].length;
    }
    pieces.push([code.length, from, false]);
    code += this.#text.slice(from);
    const origin = (offset: number) => {
      let k = pieces.length - 1;
      while (k > 0 && pieces[k]![0] > offset) k--;
      const [at, text, replaced] = pieces[k]!;
      return replaced ? text : text + offset - at;
    };
    const locals: string[] = [];
    let k = 0, j = 0;
    for (const p of this.#params) {
      if (p.pointer) {
        const at = k++;
        if (this.raw[at]) {
          const decl = pointerParam(p.dtype!, p.name, dialect, p.isConst || !this.written[at]).replace(
            "__restrict__ ",
            "",
          );
          locals.push(`${decl} = ${pointer[at]};`);
        }
      } else {
        locals.push(`const ${cType(p.dtype!, dialect)} ${p.name} = ${scalar[j++]};`);
      }
    }
    return { locals: locals.join(" "), code: placements.place(this.#part, this.#text, code, origin) };
  }

  /** Checks that the arrays the snippet indexes itself are contiguous arrays of the whole `shape`. */
  checkRaw(arrays: readonly GPUArray[], shape: readonly number[], what: string): void {
    arrays.forEach((a, k) => {
      const whole = a.isContiguous && a.shape.length === shape.length &&
        a.shape.every((d, i) => d === shape[i]);
      if (this.raw[k] && !whole) {
        const p = this.#params.filter((q) => q.pointer)[k]!;
        throw new TypeError(
          `Cannot ${what}: argument ${p.name} is a view or broadcast (shape ${
            showShape(a.shape)
          } in a loop over ${
            showShape(shape)
          }), and the snippet indexes it other than as ${p.name}[i]; pass a contiguous array of the loop's shape`,
        );
      }
    });
  }
}
