/**
 * Positions in the user's file for a kernel's errors. The JIT reads a kernel from
 * `Function.prototype.toString`, which for a TypeScript file is the text Deno runs after stripping the
 * types, laid out anew; its positions count from the function's first character. To say where the
 * code is in the file the user wrote, `jit()` and `device()` keep the call's stack (cheap: V8 formats
 * it only when read), and on an error:
 *
 * 1. the frames outside `src/jit/` name the files of the call, nearest first (`file:` URLs; others
 *    cannot be read): the function is looked for in each in turn, so `jit()` called through a helper
 *    in another file finds the kernel in the file that passed it;
 * 2. that file and the function's text are split into tokens, without spaces, comments, parentheses
 *    and semicolons (which Deno adds where it prints the code anew);
 * 3. the function's tokens are found, in order, among the file's: types, `as` casts and `!` only add
 *    tokens, each run of which begins as a type does (`:`, `as`, `!`, `<`), so the function is the
 *    shortest stretch of the file that holds all of its tokens in order with only such runs between
 *    them, and of several equal ones the nearest to a frame of the call;
 * 4. the token at the error's position in the function's text gives its line and column in the file.
 *
 * When no file of the call can be read (no `--allow-read`, remote modules) or holds the function (it
 * was built with `new Function`, or written in a file that only defines it), the position stays
 * relative to the function's text, as `(line 3, column 13)` says.
 *
 * @module
 */

import type { SourcePosition } from "./errors.ts";

/** A position in a file: the path as shown to the user, the 1-based line and column. */
export interface FilePosition {
  /** The file: relative to the current directory when inside it, else absolute. */
  readonly file: string;
  /** The 1-based line in the file. */
  readonly line: number;
  /** The 1-based column (UTF-16 code units, as editors and V8 count). */
  readonly column: number;
}

/** Maps a position in a function's text to the user's file, or undefined where that cannot be known. */
export type Locate = (at: SourcePosition) => FilePosition | undefined;

interface Token {
  readonly text: string;
  readonly kind: "word" | "number" | "string" | "punct";
  readonly line: number;
  readonly column: number;
}

const JIT_FOLDER = new URL("./", import.meta.url).href;
/** Tokens Deno may add when it prints the code anew (`({ v: 1 }).v`, a `;` for a line break): not matched. */
const UNMATCHED = new Set(["(", ")", ";"]);
const matched = (t: Token) => !UNMATCHED.has(t.text);
const FRAME = /(file:\/\/[^\s()]+):(\d+):(\d+)\)?\s*$/;
const TOKEN =
  /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?|(?:\d|\.\d)[\w.]*|[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*|\S/gu;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const m of text.matchAll(TOKEN)) {
    for (let i = text.indexOf("\n", scanned); i >= 0 && i < m.index; i = text.indexOf("\n", i + 1)) {
      line++;
      lineStart = i + 1;
    }
    scanned = m.index;
    const t = m[0];
    if (!t.startsWith("//") && !t.startsWith("/*")) {
      const c = t[0]!;
      const kind = c === '"' || c === "'" || c === "`"
        ? "string"
        : /\d/.test(c) || (c === "." && t.length > 1)
        ? "number"
        : /[\p{ID_Start}$_]/u.test(c)
        ? "word"
        : "punct";
      tokens.push({ text: t, kind, line, column: m.index - lineStart + 1 });
    }
  }
  return tokens;
}

/** Whether a token of the function's text is the same token of the file (strings and numbers by value). */
function same(fn: Token, file: Token): boolean {
  if (fn.kind !== file.kind) return false;
  if (fn.kind === "string") return fn.text.slice(1, -1) === file.text.slice(1, -1);
  if (fn.kind === "number") {
    const value = (t: string) => Number(t.replaceAll("_", "").replace(/n$/, ""));
    return fn.text === file.text || value(fn.text) === value(file.text);
  }
  return fn.text === file.text;
}

/** How the tokens TypeScript has and JavaScript has not begin: a type, a cast, a non-null or optional mark, a `this` parameter. */
const TYPE_STARTS = new Set([":", "as", "satisfies", "!", "<", "?", "this"]);

/**
 * Each of `fn`'s tokens' index in `file` when they are matched in order from `start`, or undefined. The
 * file's tokens that are skipped must be TypeScript's own: each run of them begins as a type does.
 */
function matchFrom(
  fn: readonly Token[],
  file: readonly Token[],
  start: number,
  limit: number,
): number[] | undefined {
  const at: number[] = [start];
  let p = start;
  for (let k = 1; k < fn.length; k++) {
    p++;
    if (p < file.length && !same(fn[k]!, file[p]!)) {
      if (!TYPE_STARTS.has(file[p]!.text)) return undefined;
      while (p < file.length && p - start <= limit && !same(fn[k]!, file[p]!)) p++;
    }
    if (p >= file.length || p - start > limit) return undefined;
    at.push(p);
  }
  return at;
}

/** The shortest stretch of `file` holding `fn`'s tokens in order; the one nearest `near` among equals. */
function align(fn: readonly Token[], file: readonly Token[], near: readonly number[]): number[] | undefined {
  if (fn.length === 0) return undefined;
  let best: number[] | undefined;
  let bestSpan = Infinity;
  let bestDistance = Infinity;
  for (let s = 0; s < file.length; s++) {
    if (!same(fn[0]!, file[s]!)) continue;
    const at = matchFrom(fn, file, s, bestSpan);
    if (at === undefined) continue;
    const span = at[at.length - 1]! - s;
    const line = file[s]!.line;
    const distance = Math.min(...near.map((n) => Math.abs(n - line)));
    if (span < bestSpan || (span === bestSpan && distance < bestDistance)) {
      [best, bestSpan, bestDistance] = [at, span, distance];
    }
  }
  return best;
}

function shownPath(url: URL): string {
  let path = decodeURIComponent(url.pathname);
  if (Deno.build.os === "windows") path = path.slice(1).replaceAll("/", "\\");
  try {
    const cwd = Deno.cwd();
    const prefix = cwd.endsWith("/") || cwd.endsWith("\\")
      ? cwd
      : `${cwd}${Deno.build.os === "windows" ? "\\" : "/"}`;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  } catch {
    // no --allow-read for the current directory: the absolute path
  }
  return path;
}

/** The files of a captured stack's frames outside `src/jit/`, nearest first, each with the lines of its frames. */
function callerFiles(stack: string): { url: string; lines: number[] }[] {
  const frames = stack.split("\n").map((l) => FRAME.exec(l))
    .filter((m) => m !== null && !m[1]!.startsWith(JIT_FOLDER)) as RegExpExecArray[];
  return [...new Set(frames.map((m) => m[1]!))].map((url) => ({
    url,
    lines: frames.filter((m) => m[1] === url).map((m) => Number(m[2])),
  }));
}

/** A file split into tokens, with the ones matched and the set of their keys. */
interface SplitFile {
  readonly source: string;
  readonly all: readonly Token[];
  /** The index in `all` of each token that is matched. */
  readonly kept: readonly number[];
  /** The tokens that are matched. */
  readonly tokens: readonly Token[];
  /** Every matched token's {@link key}. */
  readonly keys: ReadonlySet<string>;
}

/** What makes tokens {@link same}: a token whose key the file lacks is nowhere in it. */
function key(t: Token): string {
  if (t.kind === "string") return `s${t.text.slice(1, -1)}`;
  if (t.kind === "number") return `n${Number(t.text.replaceAll("_", "").replace(/n$/, ""))}`;
  return `${t.kind[0]}${t.text}`;
}

function split(source: string): SplitFile {
  const all = tokenize(source);
  const kept = all.flatMap((t, i) => matched(t) ? [i] : []);
  const tokens = kept.map((i) => all[i]!);
  return { source, all, kept, tokens, keys: new Set(tokens.map(key)) };
}

/** Each file read, split: a file with many kernels is read for each error but split once. */
const splitFiles = new Map<string, SplitFile>();

/** Where the function of `text` is in the files of the call (`trace`'s stack), the nearest that holds it. */
function findInFiles(text: string, trace: Error): Locate | undefined {
  const fn = split(text);
  for (const caller of callerFiles(trace.stack ?? "")) {
    const found = findInFile(fn, caller);
    if (found !== undefined) return found;
  }
  return undefined;
}

function findInFile(fn: SplitFile, caller: { url: string; lines: number[] }): Locate | undefined {
  let source: string;
  const url = new URL(caller.url);
  try {
    source = Deno.readTextFileSync(url);
  } catch {
    return undefined;
  }
  let whole = splitFiles.get(caller.url);
  if (whole?.source !== source) splitFiles.set(caller.url, whole = split(source));
  const { all: fileAll, kept: fileKept, tokens: fileTokens, keys } = whole;
  const { all: fnAll, kept: fnKept, tokens: fnTokens } = fn;
  if (fnTokens.some((t) => !keys.has(key(t)))) return undefined;
  const at = align(fnTokens, fileTokens, caller.lines);
  if (at === undefined) return undefined;
  const file = shownPath(url);
  return ({ line, column }) => {
    let k = fnAll.findIndex((t) => t.line > line || (t.line === line && t.column >= column));
    if (k < 0) k = fnAll.length - 1;
    // A construct that starts with "(" in the function's text: map the token after the parentheses,
    // then step back over as many "(" as directly precede it in the file.
    let opened = 0;
    while (k < fnAll.length - 1 && fnAll[k]!.text === "(") [k, opened] = [k + 1, opened + 1];
    const kept = Math.max(0, fnKept.findIndex((i) => i >= k));
    let p = fileKept[at[kept]!]!;
    while (opened > 0 && p > 0 && fileAll[p - 1]!.text === "(") [p, opened] = [p - 1, opened - 1];
    return { file, line: fileAll[p]!.line, column: fileAll[p]!.column };
  };
}

/**
 * Keeps the stack of the `jit()` or `device()` call now running, and returns the function that maps a
 * position of `text` (the function's source) to the caller's file, working it out on first use.
 *
 * @example
 * ```ts
 * import { locator } from "./locate.ts";
 * const locate = locator("(a) => { a[0] = 1; }");
 * console.log(locate({ line: 1, column: 10 })); // undefined here: this file holds no such function
 * ```
 */
export function locator(text: string): Locate {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 64;
  const trace = new Error();
  Error.stackTraceLimit = limit;
  let found: Locate | undefined | null = null;
  return (at) => {
    if (found === null) found = findInFiles(text, trace);
    return found?.(at);
  };
}
