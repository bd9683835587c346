/**
 * A kernel file's default run: `// cudeno: --kernel saxpy --arg n=1<<20 ...` lines among the comments
 * at the top of the file, split into words like a shell would (quotes group, nothing is expanded),
 * and combined with the command line, which overrides and extends them.
 *
 * @module
 */

import type { RunFlags } from "./args.ts";
import { UsageError } from "./usage_error.ts";
import { splitAssignment } from "./values.ts";

/**
 * Splits a line into words at spaces and tabs. `'...'` groups text as it is; `"..."` groups text in
 * which `\"` and `\\` stand for `"` and `\`; outside quotes `\` makes the next character literal.
 *
 * @param text The line.
 * @param where What the line is, for messages.
 * @returns The words.
 * @throws {UsageError} If a quote is not closed or the line ends in a lone `\`.
 *
 * @example
 * ```ts
 * import { splitWords } from "./defaults.ts";
 * console.log(splitWords(`--arg "a = 2" --arg x='rand(n)'`, "a line")); // ["--arg", "a = 2", "--arg", "x=rand(n)"]
 * ```
 */
export function splitWords(text: string, where: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === " " || c === "\t") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== c; i++) {
        if (c === '"' && text[i] === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) i++;
        word += text[i];
      }
      if (i >= text.length) {
        throw new UsageError(
          `Cannot split ${where}: the quote ${c} at column ${start + 1} is not closed; close it with ${c}`,
        );
      }
    } else if (c === "\\") {
      if (i + 1 >= text.length) {
        throw new UsageError(`Cannot split ${where}: it ends in a lone \\; remove it or write \\\\`);
      }
      word += text[++i];
    } else {
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The words of a kernel file's `// cudeno:` lines, read from the comments at its top (the lines before
 * the first one that is neither blank nor a `//` comment), in order.
 *
 * @param source The kernel file's text.
 * @param file Its path, for messages.
 * @returns The words, empty when the file has no such line.
 * @throws {UsageError} If a line's quotes do not close.
 *
 * @example
 * ```ts
 * import { defaultWords } from "./defaults.ts";
 * const source = "// cudeno: --kernel twice --arg x=ones(8)\n__global__ void twice(float *x) {}\n";
 * console.log(defaultWords(source, "twice.cu")); // ["--kernel", "twice", "--arg", "x=ones(8)"]
 * ```
 */
export function defaultWords(source: string, file: string): string[] {
  const words: string[] = [];
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "") continue;
    if (!line.startsWith("//")) break;
    const m = /^\/\/\s*cudeno:(.*)$/.exec(line);
    if (m !== null) words.push(...splitWords(m[1]!, `the // cudeno: line of ${file} (line ${i + 1})`));
  }
  return words;
}

function byName(items: readonly string[], option: string, unnamed = false): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const key = unnamed && !item.includes("=") ? "" : splitAssignment(item, option).name;
    out.set(key, item);
  }
  return out;
}

function mergeByName(
  base: readonly string[],
  over: readonly string[],
  option: string,
  unnamed = false,
): string[] {
  const merged = byName(base, option, unnamed);
  for (const [name, item] of byName(over, option, unnamed)) {
    merged.set(name, item);
  }
  return [...merged.values()];
}

/**
 * Combines a file's default flags with the command line's: a flag given on the command line wins, and
 * `--arg`, `--out` and `--shape` are merged by name (the command line's replace the defaults' of the
 * same name; the rest are kept). Launch sizes (`--grid`, `--block`, `--global`, `--local`) go together:
 * giving any of them on the command line drops all of the defaults'. When the command line picks a
 * kernel other than the default line's, the default line is not used at all.
 *
 * @param defaults The flags of the `// cudeno:` line.
 * @param given The flags of the command line.
 * @returns The flags to run with.
 * @throws {UsageError} If an `--arg`, `--out` or named `--shape` is not `NAME=VALUE`.
 *
 * @example
 * ```ts
 * import { parseRunFlags } from "./args.ts";
 * import { mergeFlags } from "./defaults.ts";
 * const defaults = parseRunFlags(["--kernel", "saxpy", "--arg", "n=1<<20", "--arg", "a=2"], "defaults").flags;
 * const given = parseRunFlags(["--arg", "n=1000"], "the command line").flags;
 * console.log(mergeFlags(defaults, given).arg); // ["n=1000", "a=2"]
 * ```
 */
export function mergeFlags(defaults: RunFlags, given: RunFlags): RunFlags {
  if (given.kernel !== undefined && defaults.kernel !== undefined && given.kernel !== defaults.kernel) {
    return given;
  }
  const sizes = [given.grid, given.block, given.global, given.local].some((s) => s !== undefined)
    ? given
    : defaults;
  return {
    list: given.list || defaults.list,
    json: given.json || defaults.json,
    help: given.help,
    kernel: given.kernel ?? defaults.kernel,
    arg: mergeByName(defaults.arg, given.arg, "--arg"),
    out: mergeByName(defaults.out, given.out, "--out"),
    shape: mergeByName(defaults.shape, given.shape, "--shape", true),
    grid: sizes.grid,
    block: sizes.block,
    global: sizes.global,
    local: sizes.local,
    repeat: given.repeat ?? defaults.repeat,
    device: given.device ?? defaults.device,
    seed: given.seed ?? defaults.seed,
    colormap: given.colormap ?? defaults.colormap,
    log: given.log || defaults.log,
    warnings: given.warnings || defaults.warnings,
  };
}
