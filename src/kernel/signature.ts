/**
 * Kernel signatures read from CUDA C++ (`__global__ void f(...)`) and OpenCL C (`__kernel void f(...)`)
 * source, so that launches can pack arguments by the kernel's own declared types.
 *
 * @module
 */

import { type CType, type Dialect, parseCType } from "./ctypes.ts";

/** One declared kernel parameter. */
export interface KernelParam extends CType {
  /** The parameter's name (`arg<i>` when the declaration leaves it out). */
  readonly name: string;
  /** Its position, from 0. */
  readonly index: number;
}

/** One kernel found in a source file. */
export interface KernelSignature {
  /** The kernel's name as declared. */
  readonly name: string;
  /** Its parameters in order. */
  readonly params: readonly KernelParam[];
  /** The 1-based line of the declaration. */
  readonly line: number;
  /** Whether the kernel is a C++ template (launchable only through an instantiation's name). */
  readonly template: boolean;
}

interface Token {
  readonly text: string;
  readonly offset: number;
}

/** A run of code with no character that may begin a comment, a literal, a directive or a new line. */
const PLAIN = /[^/"'#\n]+/y;

/**
 * Blanks comments, string and character literals and preprocessor lines, keeping offsets and newlines.
 * Runs of plain code are skipped with one regular-expression step each, so the loop turns once per
 * comment, literal, directive or line rather than once per character (a kernel's source is parsed on
 * its first launch in a process, where a per-character loop costs milliseconds of compiling).
 */
function blankNonCode(source: string): string {
  const parts: string[] = [];
  let kept = 0; // source[0, kept) is in parts
  const blank = (from: number, to: number) => {
    parts.push(source.slice(kept, from), source.slice(from, to).replace(/[^\n]/g, " "));
    kept = to;
  };
  let i = 0;
  let lineStart = true;
  while (i < source.length) {
    PLAIN.lastIndex = i;
    const plain = PLAIN.exec(source);
    if (plain !== null) {
      if (lineStart && !/^[ \t\r]*$/.test(plain[0])) lineStart = false;
      i += plain[0].length;
      continue;
    }
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      blank(i + 1, Math.min(j, source.length));
      i = j + 1;
    } else if (c === "#" && lineStart) {
      let j = i;
      while (j < source.length && (source[j] !== "\n" || source[j - 1] === "\\")) j++;
      blank(i, j);
      i = j;
    } else {
      lineStart = c === "\n"; // else a "/" or a "#", which are not blanks
      i++;
    }
  }
  parts.push(source.slice(kept));
  return parts.join("");
}

function tokenize(code: string): Token[] {
  const tokens: Token[] = [];
  for (const m of code.matchAll(/[A-Za-z_][A-Za-z0-9_]*|\d[\w.]*|"[^\S\n]*"|'[^\S\n]*'|::|\S/g)) {
    tokens.push({ text: m[0], offset: m.index });
  }
  return tokens;
}

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf("\n"); i >= 0 && i < offset; i = source.indexOf("\n", i + 1)) line++;
  return line;
}

const KERNEL_KEYWORDS: Record<Dialect, ReadonlySet<string>> = {
  cuda: new Set(["__global__"]),
  opencl: new Set(["__kernel", "kernel"]),
};
const SPECIFIERS = new Set(["static", "inline", "__inline__", "__forceinline__", "extern", "__noinline__"]);
const CALL_LIKE = new Set(["__attribute__", "__launch_bounds__", "__cluster_dims__", "__declspec"]);

/** Skips a balanced `( ... )` group starting at `i`; returns the index after it. */
function skipGroup(tokens: readonly Token[], i: number, what: string): number {
  if (tokens[i]?.text !== "(") throw new SyntaxError(`Cannot parse ${what}: expected "(" after attribute`);
  let depth = 0;
  for (; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === "(") depth++;
    else if (t === ")" && --depth === 0) return i + 1;
  }
  throw new SyntaxError(`Cannot parse ${what}: unbalanced parentheses`);
}

function skipDecorations(tokens: readonly Token[], i: number, what: string): number {
  for (;;) {
    const t = tokens[i]?.text;
    if (t === undefined) return i;
    if (CALL_LIKE.has(t)) i = skipGroup(tokens, i + 1, what);
    else if (SPECIFIERS.has(t) || /^"[^\S\n]*"$/.test(t)) i++;
    else return i;
  }
}

function splitTopLevel(tokens: readonly Token[]): Token[][] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    const t = token.text;
    if (t === "(" || t === "[" || t === "<" || t === "{") depth++;
    else if (t === ")" || t === "]" || t === ">" || t === "}") depth--;
    if (t === "," && depth === 0) parts.push([]);
    else parts[parts.length - 1]!.push(token);
  }
  return parts;
}

function parseParam(tokens: readonly Token[], index: number, dialect: Dialect, what: string): KernelParam {
  const eq = tokens.findIndex((t) => t.text === "=");
  let decl = eq >= 0 ? tokens.slice(0, eq) : [...tokens];
  let array = false;
  const bracket = decl.findIndex((t) => t.text === "[");
  if (bracket >= 0) {
    array = true;
    decl = decl.slice(0, bracket);
  }
  if (decl.length === 0) throw new SyntaxError(`Cannot parse ${what}: parameter ${index + 1} is empty`);
  const last = decl[decl.length - 1]!.text;
  const typeWords = decl.filter((t) =>
    /^[A-Za-z_]/.test(t.text) && !/^(const|volatile|__restrict__|__restrict|restrict)$/.test(t.text)
  );
  const named = /^[A-Za-z_]\w*$/.test(last) && typeWords.length >= 2 && !isTypeKeyword(last);
  const name = named ? last : `arg${index}`;
  const typeText = (named ? decl.slice(0, -1) : decl).map((t) => t.text).join(" ") + (array ? " *" : "");
  try {
    return { ...parseCType(typeText, dialect), name, index };
  } catch (e) {
    throw new SyntaxError(`Cannot parse ${what}: parameter ${index + 1} (${name}): ${(e as Error).message}`);
  }
}

const TYPE_KEYWORDS = new Set([
  "int",
  "char",
  "short",
  "long",
  "unsigned",
  "signed",
  "float",
  "double",
  "bool",
  "void",
]);
function isTypeKeyword(word: string): boolean {
  return TYPE_KEYWORDS.has(word);
}

/**
 * Parses a bare parameter list (`"float *x, float *y, int n"`), as `ElementwiseKernel` takes it.
 *
 * @throws {SyntaxError} naming the parameter that does not parse.
 * @example
 * ```ts
 * import { parseParameterList } from "@cudeno/cudeno/cuda";
 * const params = parseParameterList("const float *x, unsigned int n", "cuda");
 * console.log(params.map((p) => `${p.name}: ${p.text}`)); // ["x: const float *", "n: unsigned int"]
 * ```
 */
export function parseParameterList(list: string, dialect: Dialect): KernelParam[] {
  const tokens = tokenize(blankNonCode(list));
  if (tokens.length === 0 || (tokens.length === 1 && tokens[0]!.text === "void")) return [];
  const shown = list.replace(/\s+/g, " ").trim();
  return splitTopLevel(tokens).map((part, i) => parseParam(part, i, dialect, `parameter list "${shown}"`));
}

/**
 * Finds every kernel in CUDA C++ or OpenCL C source, with its parameters' types.
 *
 * A declaration followed by its definition is reported once. Kernels produced by macros are not seen.
 *
 * @throws {SyntaxError} with the line when a kernel declaration does not parse.
 * @example
 * ```ts
 * import { parseKernels } from "@cudeno/cudeno/cuda";
 * const [k] = parseKernels(`__global__ void scale(float *x, float a, int n) {}`, "cuda");
 * console.log(k.name, k.params.map((p) => p.dtype)); // "scale" ["float32", "float32", "int32"]
 * ```
 */
export function parseKernels(source: string, dialect: Dialect): KernelSignature[] {
  const tokens = tokenize(blankNonCode(source));
  const found = new Map<string, KernelSignature>();
  let templateOpen = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!.text;
    if (t === "template") templateOpen = true;
    else if (t === ";" || t === "{" || t === "}") templateOpen = false;
    if (!KERNEL_KEYWORDS[dialect].has(t)) continue;
    const line = lineOf(source, tokens[i]!.offset);
    const what = `the kernel declared on line ${line}`;
    let j = skipDecorations(tokens, i + 1, what);
    if (tokens[j]?.text !== "void") {
      throw new SyntaxError(
        `Cannot parse ${what}: a kernel must return void, found "${tokens[j]?.text ?? "end of source"}"`,
      );
    }
    j = skipDecorations(tokens, j + 1, what);
    const name = tokens[j]?.text;
    if (name === undefined || !/^[A-Za-z_]\w*$/.test(name)) {
      throw new SyntaxError(
        `Cannot parse ${what}: expected the kernel's name, found "${name ?? "end of source"}"`,
      );
    }
    const open = j + 1;
    const close = skipGroup(tokens, open, what) - 1;
    const params = splitTopLevel(tokens.slice(open + 1, close));
    const list = params.length === 1 &&
        (params[0]!.length === 0 || (params[0]!.length === 1 && params[0]![0]!.text === "void"))
      ? []
      : params.map((part, k) => parseParam(part, k, dialect, `kernel "${name}" (line ${line})`));
    const isDefinition = tokens[skipDecorations(tokens, close + 1, what)]?.text === "{";
    if (!found.has(name) || isDefinition) {
      found.set(name, { name, params: list, line, template: templateOpen });
    }
    i = close;
  }
  return [...found.values()];
}
