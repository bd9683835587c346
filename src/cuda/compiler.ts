/**
 * CUDA C++ to device code with NVRTC: a cubin for the current device's own architecture by default
 * (so a newer NVRTC never produces PTX an older driver rejects), with PyCUDA's `extern "C"` wrapping,
 * the compiler's full log on failure, and the on-disk cache.
 *
 * @module
 */

import { libnvrtc, libnvrtcCompile } from "../../ffi/nvrtc.ts";
import { cudaToolkitDirs } from "../../ffi/load.ts";
import { type CacheSource, CompileCache } from "../kernel/cache.ts";
import { requireContext } from "./context.ts";
import { type KernelSignature, parseKernels } from "../kernel/signature.ts";

/** Options for {@link compile} and `SourceModule`. */
export interface CompileOptions {
  /**
   * Target: `"sm_90"` for a cubin, `"compute_90"` for PTX. Default: the current device's `sm_XY`, or
   * the newest PTX NVRTC knows when it does not know the device.
   */
  readonly arch?: string;
  /** Extra NVRTC options (`["--use_fast_math", "-lineinfo"]`). Default: none. */
  readonly options?: readonly string[];
  /** Folders searched by `#include` (passed as `-I`). Default: none. */
  readonly include?: readonly string[];
  /**
   * Leave the source as it is. By default, as in PyCUDA, it is wrapped in `extern "C" { }` (with its
   * `#include` lines kept outside) so kernel names are not mangled.
   */
  readonly noExternC?: boolean;
  /** Use the compile cache (memory and disk). Default true; `CUDENO_DISABLE_CACHE=1` turns the disk part off. */
  readonly cache?: boolean;
  /** The program's name in compiler messages. Default `kernel.cu`. */
  readonly name?: string;
  /**
   * C++ names to look up after compiling (`"scale<float>"`, `"ns::kernel"`), as CuPy's
   * `name_expressions`: `getFunction()` then accepts them. With `noExternC`, every non-template
   * `__global__` function found in the source is added automatically.
   * Default: none.
   */
  readonly nameExpressions?: readonly string[];
}

/**
 * NVRTC rejected the source. The message and {@link log} hold the compiler's full log.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * try {
 *   new cuda.SourceModule("__global__ void broken( {}");
 * } catch (e) {
 *   if (e instanceof cuda.CompileError) console.log(e.log);
 * }
 * ```
 */
export class CompileError extends Error {
  /** The compiler's log. */
  readonly log: string;
  /** The source as given to NVRTC (after `extern "C"` wrapping). */
  readonly source: string;
  /** The options NVRTC was given. */
  readonly options: readonly string[];

  /** Builds the error from the compiler's log. */
  constructor(log: string, source: string, options: readonly string[]) {
    super(
      `Cannot compile CUDA source: NVRTC reported errors (options: ${options.join(" ")})\n${log.trimEnd()}`,
    );
    this.name = "CompileError";
    this.log = log;
    this.source = source;
    this.options = options;
  }
}

/** NVRTC failed for a reason other than the source (out of memory, a bad option). */
export class NvrtcError extends Error {
  /** The `nvrtcResult` value. */
  readonly code: number;
  /** The NVRTC function that returned it. */
  readonly call: string;

  /** Builds the error from NVRTC's own description of `code`. */
  constructor(code: number, call: string) {
    const text = libnvrtc.get().nvrtcGetErrorString(code);
    super(
      `${call} failed: ${text === null ? `nvrtcResult ${code}` : Deno.UnsafePointerView.getCString(text)}`,
    );
    this.name = "NvrtcError";
    this.code = code;
    this.call = call;
  }
}

function check(code: number, call: string): void {
  if (code !== 0) throw new NvrtcError(code, call);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function cString(text: string): Uint8Array {
  return encoder.encode(text + "\0");
}

/** A `const char *const[]` built from strings; the strings' buffers are returned so they stay referenced. */
function cStringArray(items: readonly string[]): { array: BigUint64Array; keep: Uint8Array[] } {
  const keep = items.map(cString);
  const array = new BigUint64Array(keep.map((b) => Deno.UnsafePointer.value(Deno.UnsafePointer.of(b))));
  return { array, keep };
}

let version: [number, number] | undefined;

/**
 * NVRTC's version as `[major, minor]`.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * console.log(cuda.nvrtcVersion()); // [13, 0]
 * ```
 */
export function nvrtcVersion(): [number, number] {
  if (version === undefined) {
    const major = new Int32Array(1);
    const minor = new Int32Array(1);
    check(libnvrtc.get().nvrtcVersion(major, minor), "nvrtcVersion");
    version = [major[0]!, minor[0]!];
  }
  return version;
}

let archs: readonly number[] | undefined;

/** The `sm_XY` numbers this NVRTC can compile for (`[75, 80, 86, 89, 90, ...]`), asked once. */
export function nvrtcSupportedArchs(): number[] {
  if (archs === undefined) {
    const lib = libnvrtc.get();
    const count = new Int32Array(1);
    check(lib.nvrtcGetNumSupportedArchs(count), "nvrtcGetNumSupportedArchs");
    const list = new Int32Array(count[0]!);
    check(lib.nvrtcGetSupportedArchs(list), "nvrtcGetSupportedArchs");
    archs = [...list];
  }
  return [...archs];
}

/** The architecture to compile for by default: the current device's `sm_XY`, else the newest `compute_XY` below it. */
export function defaultArch(): string {
  const [major, minor] = requireContext("compiling for the current device").device.computeCapability;
  const target = major * 10 + minor;
  const supported = nvrtcSupportedArchs();
  if (supported.includes(target)) return `sm_${target}`;
  const older = supported.filter((a) => a < target);
  if (older.length === 0) {
    throw new RangeError(`Cannot compile for sm_${target}: this NVRTC supports only ${supported.join(", ")}`);
  }
  return `compute_${Math.max(...older)}`;
}

/** Wraps source in `extern "C"`, keeping `#include` lines outside and line numbers unchanged. */
export function wrapExternC(source: string): string {
  const includes: string[] = [];
  const body = source.split("\n").map((line) => {
    if (/^\s*#\s*include\b/.test(line)) {
      includes.push(line);
      return "";
    }
    return line;
  });
  return `${includes.join("\n")}\nextern "C" {\n#line 1\n${body.join("\n")}\n}\n`;
}

let headers: string[] | undefined;

/** The CUDA headers' folder (for `cuda_fp16.h` and friends): next to the NVRTC that loaded, else the toolkit's; looked up once. */
function toolkitInclude(): string[] {
  headers ??= findToolkitInclude();
  return headers;
}

function findToolkitInclude(): string[] {
  const path = libnvrtc.load().path;
  const slash = path.lastIndexOf("/");
  const candidates = [
    ...(slash < 0 ? [] : [`${path.slice(0, slash)}/../include`]),
    ...cudaToolkitDirs().map((lib) => `${lib}/../include`),
  ];
  for (const dir of candidates) {
    try {
      if (Deno.statSync(`${dir}/cuda_fp16.h`).isFile) return [dir];
    } catch {
      // not there, or no --allow-read: NVRTC's built-in headers are all there is
    }
  }
  return [];
}

/** The result of one compilation. */
export interface CompiledCode {
  /** The cubin, or NUL-terminated PTX text for a `compute_XY` target. */
  readonly image: Uint8Array;
  /** Whether {@link image} is a cubin or PTX. */
  readonly kind: "cubin" | "ptx";
  /** The compiler's log (warnings), empty on a cache hit. */
  readonly log: string;
  /** Where the image came from. */
  readonly cache: CacheSource;
  /** The source as compiled (after wrapping). */
  readonly source: string;
  /** Mangled names of the requested name expressions, by expression. */
  readonly loweredNames: Readonly<Record<string, string>>;
  /**
   * The kernels declared in the source as given (what launches pack arguments by), kept in the disk
   * cache beside the image so that a new process does not parse the source again; undefined when the
   * declarations do not parse (a {@link SourceModule} then reports that).
   */
  readonly signatures?: readonly KernelSignature[];
}

const cubins = new CompileCache("cuda");

interface Prepared {
  /** The source as given, and as compiled (wrapped). */
  readonly original: string;
  readonly source: string;
  readonly options: string[];
  readonly kind: "cubin" | "ptx";
  readonly key: string;
  readonly useCache: boolean;
  readonly name: string;
  readonly expressions: readonly string[];
}

/**
 * What {@link prepare} made, by source and then options: a loop that makes the same module again
 * (from the cache) skips the wrapping and the SHA-256 of its key.
 */
const preparedBySource = new Map<string, Map<string, Prepared>>();

function prepare(source: string, opts: CompileOptions): Prepared {
  const arch = opts.arch ?? defaultArch(); // the current device's, so part of the key
  const optionsKey = `${arch}\u0000${JSON.stringify(opts)}`;
  let byOptions = preparedBySource.get(source);
  const known = byOptions?.get(optionsKey);
  if (known !== undefined) return known;
  const made = prepareNew(source, opts, arch);
  if (byOptions === undefined) preparedBySource.set(source, byOptions = new Map());
  byOptions.set(optionsKey, made);
  return made;
}

function prepareNew(source: string, opts: CompileOptions, arch: string): Prepared {
  const kind = arch.startsWith("sm_") ? "cubin" : "ptx";
  const wrapped = opts.noExternC ? source : wrapExternC(source);
  const include = [...(opts.include ?? []), ...toolkitInclude()];
  const options = [
    `--gpu-architecture=${arch}`,
    "-std=c++17",
    ...include.map((d) => `-I${d}`),
    ...(opts.options ?? []),
  ];
  const automatic = opts.noExternC
    ? parseKernels(source, "cuda").filter((k) => !k.template).map((k) => k.name)
    : [];
  const expressions = [...new Set([...(opts.nameExpressions ?? []), ...automatic])];
  const [major, minor] = nvrtcVersion();
  const key = CompileCache.key(
    wrapped,
    options.join("\u0001"),
    expressions.join("\u0001"),
    `nvrtc ${major}.${minor}`,
  );
  const name = opts.name ?? "kernel.cu";
  return {
    original: source,
    source: wrapped,
    options,
    kind,
    key,
    useCache: opts.cache !== false,
    name,
    expressions,
  };
}

function createProgram(p: Prepared): BigUint64Array {
  const lib = libnvrtc.get();
  const prog = new BigUint64Array(1);
  check(
    lib.nvrtcCreateProgram(prog, cString(p.source), cString(p.name), 0, null, null),
    "nvrtcCreateProgram",
  );
  const handle = Deno.UnsafePointer.create(prog[0]!);
  for (const e of p.expressions) {
    check(lib.nvrtcAddNameExpression(handle, cString(e)), "nvrtcAddNameExpression");
  }
  return prog;
}

function loweredNames(handle: Deno.PointerObject, expressions: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const name = new BigUint64Array(1);
  for (const e of expressions) {
    check(libnvrtc.get().nvrtcGetLoweredName(handle, cString(e), name), "nvrtcGetLoweredName");
    out[e] = Deno.UnsafePointerView.getCString(Deno.UnsafePointer.create(name[0]!)!);
  }
  return out;
}

/** What a cache payload holds beside the image. */
interface Described {
  readonly names: Readonly<Record<string, string>>;
  readonly signatures?: readonly KernelSignature[];
}

/** Cache payload: a 4-byte length, the lowered names and signatures as JSON, then the image. */
function pack(image: Uint8Array, described: Described): Uint8Array {
  const json = encoder.encode(JSON.stringify(described));
  const out = new Uint8Array(4 + json.length + image.length);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(image, 4 + json.length);
  return out;
}

function unpack(payload: Uint8Array): { image: Uint8Array; described: Described } | undefined {
  if (payload.length < 4) return undefined;
  const length = new DataView(payload.buffer, payload.byteOffset).getUint32(0, true);
  if (4 + length > payload.length) return undefined;
  try {
    const described = JSON.parse(decoder.decode(payload.subarray(4, 4 + length)));
    if (typeof described?.names !== "object" || described.names === null) return undefined;
    return { image: payload.subarray(4 + length), described };
  } catch {
    return undefined;
  }
}

/** The kernels `source` declares, or undefined when a declaration does not parse. */
function signaturesIn(source: string): readonly KernelSignature[] | undefined {
  try {
    return parseKernels(source, "cuda");
  } catch {
    return undefined;
  }
}

function programLog(handle: Deno.PointerObject): string {
  const lib = libnvrtc.get();
  const size = new BigUint64Array(1);
  check(lib.nvrtcGetProgramLogSize(handle, size), "nvrtcGetProgramLogSize");
  const buf = new Uint8Array(Number(size[0]!));
  if (buf.length > 0) check(lib.nvrtcGetProgramLog(handle, buf), "nvrtcGetProgramLog");
  return decoder.decode(buf).replace(/\0+$/, "");
}

function finish(prog: BigUint64Array, code: number, p: Prepared): CompiledCode {
  const lib = libnvrtc.get();
  const handle = Deno.UnsafePointer.create(prog[0]!)!;
  try {
    const log = programLog(handle);
    if (code === 6) throw new CompileError(log, p.source, p.options);
    check(code, "nvrtcCompileProgram");
    const size = new BigUint64Array(1);
    let image: Uint8Array;
    if (p.kind === "cubin") {
      check(lib.nvrtcGetCUBINSize(handle, size), "nvrtcGetCUBINSize");
      image = new Uint8Array(Number(size[0]!));
      check(lib.nvrtcGetCUBIN(handle, image), "nvrtcGetCUBIN");
    } else {
      check(lib.nvrtcGetPTXSize(handle, size), "nvrtcGetPTXSize");
      image = new Uint8Array(Number(size[0]!));
      check(lib.nvrtcGetPTX(handle, image), "nvrtcGetPTX");
    }
    const names = loweredNames(handle, p.expressions);
    const signatures = signaturesIn(p.original);
    if (p.useCache) cubins.put(p.key, pack(image, { names, signatures }));
    return { image, kind: p.kind, log, cache: "none", source: p.source, loweredNames: names, signatures };
  } finally {
    lib.nvrtcDestroyProgram(prog);
  }
}

/** Unpacked cache payloads, so a memory hit parses its names once. */
const unpacked = new WeakMap<Uint8Array, { image: Uint8Array; described: Described }>();

function cached(p: Prepared): CompiledCode | undefined {
  if (!p.useCache) return undefined;
  const hit = cubins.get(p.key);
  let entry = hit === undefined ? undefined : unpacked.get(hit.payload);
  if (hit !== undefined && entry === undefined) {
    entry = unpack(hit.payload);
    if (entry !== undefined) {
      const { names, signatures } = entry.described;
      unpacked.set(
        hit.payload,
        entry = { image: entry.image, described: { names: Object.freeze(names), signatures } },
      );
    }
  }
  if (hit === undefined || entry === undefined) return undefined;
  return {
    image: entry.image,
    kind: p.kind,
    log: "",
    cache: hit.source,
    source: p.source,
    loweredNames: entry.described.names,
    signatures: entry.described.signatures,
  };
}

/**
 * Compiles CUDA C++ to a cubin (or PTX) synchronously, or takes it from the cache (PyCUDA's
 * `compiler.compile`).
 *
 * @throws {CompileError} with NVRTC's log when the source does not compile.
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const { image, kind } = cuda.compile("__global__ void k(float *x) { x[0] = 1; }");
 * console.log(kind, image.length);
 * ```
 */
export function compile(source: string, options: CompileOptions = {}): CompiledCode {
  const p = prepare(source, options);
  const hit = cached(p);
  if (hit !== undefined) return hit;
  const prog = createProgram(p);
  const opts = cStringArray(p.options);
  const code = libnvrtc.get().nvrtcCompileProgram(
    Deno.UnsafePointer.create(prog[0]!),
    p.options.length,
    opts.array,
  );
  return finish(prog, code, p);
}

/**
 * Compiles like {@link compile}, but NVRTC runs on a worker thread, so Deno's event loop keeps running.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const { image } = await cuda.compileAsync("__global__ void k(float *x) { x[0] = 1; }");
 * ```
 */
export async function compileAsync(source: string, options: CompileOptions = {}): Promise<CompiledCode> {
  const p = prepare(source, options);
  const hit = cached(p);
  if (hit !== undefined) return hit;
  const prog = createProgram(p);
  const opts = cStringArray(p.options);
  const code = await libnvrtcCompile.get().nvrtcCompileProgram(
    Deno.UnsafePointer.create(prog[0]!),
    p.options.length,
    opts.array,
  );
  void opts.keep; // the option strings stay referenced until NVRTC has returned
  return finish(prog, code, p);
}

/** Forgets compiled modules held in memory (the disk cache stays); the next compile reads the disk. */
export function clearMemoryCache(): void {
  cubins.clearMemory();
}
