/**
 * `cudeno types FILE`: a TypeScript module with a typed launcher per kernel, so that a call with the
 * wrong number or types of arguments fails `deno check`. Scalars are `number` (`number | bigint` for
 * 64-bit integers, `boolean | 0 | 1` for bool); vectors a tuple of their length or the typed array of
 * their element (`float3`: `readonly [number, number, number] | Float32Array`); CUDA pointers are `cuda.DeviceTarget` (or a
 * `cuda.HostArgument` such as `cuda.In(array)`), then a `cuda.LaunchConfig`; OpenCL kernels take the
 * queue and the global and local sizes first, then `cl.BufferLike` for pointers and `cl.LocalMemory`
 * for `__local` ones (typed so that a buffer, which also has a `size`, is refused), and return a
 * `cl.Event`.
 *
 * @module
 */

import type { Dialect, VectorType } from "../kernel/ctypes.ts";
import type { DType } from "../kernel/dtype.ts";
import type { KernelParam, KernelSignature } from "../kernel/signature.ts";
import { parseTypesFlags } from "./args.ts";
import { TYPES_HELP } from "./help.ts";
import type { CliIO } from "./io.ts";
import { type KernelFile, readKernelFile } from "./kernel_file.ts";
import { UsageError } from "./usage_error.ts";
import { PACKAGE_VERSION } from "./version.ts";

/**
 * The import specifier a generated module uses by default: `jsr:@cudeno/cudeno@^0.1.0/cuda` or `/opencl`.
 *
 * @example
 * ```ts
 * import { defaultImport } from "./types.ts";
 * console.log(defaultImport("opencl")); // "jsr:@cudeno/cudeno@^0.1.0/opencl"
 * ```
 */
export function defaultImport(dialect: Dialect): string {
  return `jsr:@cudeno/cudeno@^${PACKAGE_VERSION}/${dialect}`;
}

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally " +
    "for function if import in instanceof new null return super switch this throw true try typeof var void " +
    "while with implements interface let package private protected public static yield await arguments eval")
    .split(" "),
);

/** The typed arrays a vector may be given as, by element type (bfloat16 and bool elements: tuples only). */
const VECTOR_ARRAYS: Partial<Record<DType, string>> = {
  float32: "Float32Array",
  float64: "Float64Array",
  float16: "Float16Array",
  int8: "Int8Array",
  uint8: "Uint8Array",
  int16: "Int16Array",
  uint16: "Uint16Array",
  int32: "Int32Array",
  uint32: "Uint32Array",
  int64: "BigInt64Array",
  uint64: "BigUint64Array",
};

function vectorType(vector: VectorType): string {
  const element = elementType(vector.element);
  const tuple = `readonly [${Array.from({ length: vector.lanes }, () => element).join(", ")}]`;
  const array = VECTOR_ARRAYS[vector.element];
  return array === undefined ? tuple : `${tuple} | ${array}`;
}

function elementType(dtype: DType): string {
  switch (dtype) {
    case "int64":
    case "uint64":
      return "number | bigint";
    case "bool":
      return "boolean | 0 | 1";
    default:
      return "number";
  }
}

function paramType(param: KernelParam, dialect: Dialect): string | undefined {
  if (!param.pointer) {
    if (param.dtype !== undefined) return elementType(param.dtype);
    return param.vector === undefined ? undefined : vectorType(param.vector);
  }
  if (dialect === "cuda") return "cuda.DeviceTarget | cuda.HostArgument";
  return param.addressSpace === "local" ? "Local" : "cl.BufferLike";
}

/** A TypeScript parameter name for each C name, avoiding reserved words and the launch parameters' names. */
function tsNames(
  params: readonly KernelParam[],
  launch: readonly string[],
): { kernel: string[]; launch: string[] } {
  const taken = new Set<string>();
  const pick = (name: string) => {
    let out = RESERVED.has(name) ? `${name}_` : name;
    while (taken.has(out)) out += "_";
    taken.add(out);
    return out;
  };
  const kernel = params.map((p) => pick(p.name));
  return { kernel, launch: launch.map(pick) };
}

/** `readonly name: (a: A, b: B) => R;`, one parameter a line when the whole is too long for one. */
function member(name: string, type: string): string {
  const line = `  readonly ${name}: ${type};`;
  if (line.length <= 110) return line;
  const close = type.lastIndexOf(")");
  const params = type.slice(1, close).split(", ");
  return [`  readonly ${name}: (`, ...params.map((p) => `    ${p},`), `  ${type.slice(close)};`].join("\n");
}

function signatureLine(k: KernelSignature): string {
  return `${k.name}(${k.params.map((p) => `${p.text} ${p.name}`).join(", ")})`;
}

function launcherType(k: KernelSignature, dialect: Dialect): string | { skipped: string } {
  if (k.template) return { skipped: "it is a template; type an instantiation by hand" };
  const types = k.params.map((p) => paramType(p, dialect));
  const bad = k.params.findIndex((_, i) => types[i] === undefined);
  if (bad >= 0) {
    const p = k.params[bad]!;
    return { skipped: `parameter ${p.name} is ${p.base} by value, which cudeno cannot pass` };
  }
  const launchNames = dialect === "cuda" ? ["config"] : ["queue", "globalSize", "localSize"];
  const names = tsNames(k.params, launchNames);
  const args = k.params.map((_, i) => `${names.kernel[i]}: ${types[i]}`);
  if (dialect === "cuda") {
    return `(${[...args, `${names.launch[0]}: cuda.LaunchConfig`].join(", ")}) => void`;
  }
  const [queue, global, local] = names.launch;
  const head = [`${queue}: cl.CommandQueue`, `${global}: Size`, `${local}: Size | null`];
  return `(${[...head, ...args].join(", ")}) => cl.Event`;
}

/**
 * The generated module's text, and the kernels left out of it (templates, and kernels with a
 * parameter passed by value whose type cudeno cannot pass), each with the reason.
 *
 * @example
 * ```ts
 * import { type GeneratedTypes, generateTypes } from "./types.ts";
 * import { readKernelFile } from "./kernel_file.ts";
 * const generated: GeneratedTypes = generateTypes(readKernelFile("kernels/saxpy.cu"));
 * console.log(generated.skipped.length); // 0
 * ```
 */
export interface GeneratedTypes {
  /** The TypeScript module. */
  readonly code: string;
  /** `name (line N): why` for each kernel left out. */
  readonly skipped: readonly string[];
}

/**
 * Writes the typed module for a kernel file: an interface `Kernels` with one launcher type per kernel,
 * and `kernels(mod)` (CUDA: a `cuda.Module`, such as a `SourceModule` of the file) or
 * `kernels(program)` (OpenCL: a built `cl.Program`) returning them.
 *
 * @param file The kernel file.
 * @param importSpec Where the module imports cudeno's types from; defaults to {@link defaultImport}.
 * @returns The module and the kernels left out.
 * @throws {UsageError} If the file declares no kernels.
 *
 * @example
 * ```ts
 * import { generateTypes } from "./types.ts";
 * import { readKernelFile } from "./kernel_file.ts";
 * console.log(generateTypes(readKernelFile("kernels/saxpy.cl"), "./cudeno/opencl.ts").code);
 * ```
 */
export function generateTypes(
  file: KernelFile,
  importSpec: string = defaultImport(file.dialect),
): GeneratedTypes {
  if (file.kernels.length === 0) {
    throw new UsageError(`Cannot write types for ${file.path}: it declares no kernels`);
  }
  const cuda = file.dialect === "cuda";
  const ns = cuda ? "cuda" : "cl";
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  const members: string[] = [];
  const entries: string[] = [];
  const skipped: string[] = [];
  const typed: KernelSignature[] = [];
  for (const k of file.kernels) {
    const type = launcherType(k, file.dialect);
    if (typeof type !== "string") {
      skipped.push(`${k.name} (line ${k.line}): ${type.skipped}`);
      continue;
    }
    typed.push(k);
    const key = JSON.stringify(k.name);
    members.push(
      `  /** \`${signatureLine(k)}\`, line ${k.line} of ${name}. */`,
      member(k.name, type),
    );
    const get = cuda ? `mod.getFunction(${key})` : `program.getKernel(${key})`;
    entries.push(`    ${k.name}: ${get} as Kernels[${key}],`);
  }
  const holder = cuda ? "mod: cuda.Module" : "program: cl.Program";
  const first = typed[0]?.name ?? "kernel";
  const local = !cuda && typed.some((k) => k.params.some((p) => p.addressSpace === "local"));
  const made = cuda
    ? `const { ${first} } = kernels(new cuda.SourceModule(Deno.readTextFileSync("${name}")));`
    : `const { ${first} } = kernels(new cl.Program(context, Deno.readTextFileSync("${name}")).build());`;
  const lines = [
    `// Typed launchers for the kernels of ${name}, written by \`cudeno types\`; write it again when they change.`,
    ...skipped.map((s) => `// Left out: ${s}.`),
    "",
    `import type * as ${ns} from ${JSON.stringify(importSpec)};`,
    "",
    ...(cuda ? [] : [
      "/** A global or local size: a number, or 1 to 3 numbers. */",
      "export type Size = number | readonly [number] | readonly [number, number] | readonly [number, number, number];",
      "",
    ]),
    ...(local
      ? [
        "/** Local memory reserved per work-group: a `cl.LocalMemory`, never a buffer (which has a `size` too). */",
        "export type Local = cl.LocalMemory & { readonly [cl.clBuffer]?: never };",
        "",
      ]
      : []),
    `/** The kernels of ${name}, each typed from its declaration. */`,
    "export interface Kernels {",
    ...members,
    "}",
    "",
    "/**",
    ` * The kernels of ${name}, typed, from a ${cuda ? "module compiled from it" : "program built from it"}.`,
    " *",
    " * @example",
    " * ```ts",
    ` * ${made}`,
    " * ```",
    " */",
    `export function kernels(${holder}): Kernels {`,
    "  return {",
    ...entries,
    "  };",
    "}",
    "",
  ];
  return { code: lines.join("\n"), skipped };
}

/**
 * `cudeno types FILE [-o OUT.ts] [--import SPEC]`: writes the module to OUT.ts or standard output, and
 * notes each kernel left out on standard error.
 *
 * @param args The words after `types`.
 * @param io Where to print.
 * @returns The exit status (0).
 * @throws {UsageError} For a bad flag or file, or an output path that cannot be written.
 *
 * @example
 * ```ts
 * import { typesCommand } from "./types.ts";
 * import { consoleIO } from "./io.ts";
 * typesCommand(["kernels/saxpy.cu", "-o", "saxpy_kernels.ts"], consoleIO);
 * ```
 */
export function typesCommand(args: readonly string[], io: CliIO): number {
  const flags = parseTypesFlags(args);
  if (flags.help) {
    io.out(TYPES_HELP);
    return 0;
  }
  const generated = generateTypes(readKernelFile(flags.file), flags.import);
  for (const s of generated.skipped) io.err(`cudeno: left out ${s}`);
  if (flags.output === undefined) {
    io.out(generated.code.trimEnd());
    return 0;
  }
  try {
    Deno.writeTextFileSync(flags.output, generated.code);
  } catch (error) {
    const detail = error instanceof Deno.errors.NotFound
      ? "its folder does not exist; create it or choose another path"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new UsageError(`Cannot write ${flags.output}: ${detail}`, { cause: error });
  }
  return 0;
}
