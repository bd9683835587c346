/**
 * Loaded device code: `SourceModule` compiles CUDA C++ with NVRTC (cached) and loads it; `Module`
 * loads a cubin or PTX image. `getFunction` returns a launchable kernel; `getGlobal` a `__device__`
 * or `__constant__` variable.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda, CudaError } from "./errors.ts";
import { type Context, requireContext } from "./context.ts";
import { compile, compileAsync, type CompiledCode, type CompileOptions } from "./compiler.ts";
import { type KernelFunction, makeKernelFunction } from "./function.ts";
import { devicePointer } from "./memory.ts";
import {
  type KernelParam,
  type KernelSignature,
  parseKernels,
  parseParameterList,
} from "../kernel/signature.ts";
import { Owned, ownership } from "./owned.ts";

const modules = ownership<Deno.PointerObject>((handle) => driver().cuModuleUnload(handle));

const CU_JIT_ERROR_LOG_BUFFER = 5;
const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
const LOG_BYTES = 16384;

/** The JIT error log buffer and the option arrays naming it, made on the first failed load and reused. */
let jit: { log: Uint8Array; options: Int32Array; values: BigUint64Array } | undefined;
/** The out-parameter of module loads and kernel lookups, shared: each call's result is read at once. */
const loaded = new BigUint64Array(1);
const encoder = new TextEncoder();

/**
 * Loads an image with no JIT options, as C's `cuModuleLoadData` does, so a load costs what the
 * driver's own does. Only a load that fails is repeated with an error log buffer, to say why.
 */
function loadImage(image: Uint8Array): Deno.PointerObject {
  const lib = driver();
  const code = lib.cuModuleLoadDataEx(loaded, image, 0, null, null);
  if (code === 0) return Deno.UnsafePointer.create(loaded[0]!)!;
  if (jit === undefined) {
    const log = new Uint8Array(LOG_BYTES);
    const options = new Int32Array([CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER]);
    jit = {
      log,
      options,
      values: new BigUint64Array([BigInt(LOG_BYTES), Deno.UnsafePointer.value(Deno.UnsafePointer.of(log))]),
    };
  }
  const { log, options, values } = jit;
  log[0] = 0;
  const again = lib.cuModuleLoadDataEx(loaded, image, 2, options, values);
  if (again === 0) return Deno.UnsafePointer.create(loaded[0]!)!;
  const end = log.indexOf(0);
  const text = new TextDecoder().decode(log.subarray(0, end < 0 ? log.length : end)).trim();
  throw new CudaError(again, "cuModuleLoadDataEx", text === "" ? "" : `: ${text}`);
}

const NO_SIGNATURES: ReadonlyMap<string, KernelSignature> = new Map();

/** The kernels' signatures by name, parsed once per source (modules of one source share them, read-only). */
const signaturesBySource = new Map<string, ReadonlyMap<string, KernelSignature>>();

function signaturesOf(source: string): ReadonlyMap<string, KernelSignature> {
  let known = signaturesBySource.get(source);
  if (known === undefined) {
    known = new Map(parseKernels(source, "cuda").map((k) => [k.name, k]));
    signaturesBySource.set(source, known);
  }
  return known;
}

/** A `__device__` or `__constant__` variable of a module: its address and size, usable wherever device memory is. */
export interface DeviceGlobal {
  /** The variable's device address. */
  readonly ptr: bigint;
  /** Its size in bytes. */
  readonly size: number;
  /** The address and size, so copies accept the global directly. */
  [devicePointer](): { readonly ptr: bigint; readonly size: number };
}

/**
 * A loaded cubin or PTX image (PyCUDA's `driver.Module`, as `module_from_buffer` returns it).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const { image } = cuda.compile("__global__ void k(float *x) { x[0] = 1; }");
 * const mod = new cuda.Module(image, { source: "__global__ void k(float *x) { x[0] = 1; }" });
 * const k = mod.getFunction("k");
 * ```
 */
export class Module {
  readonly #held: Owned<Deno.PointerObject>;
  readonly #signatures: ReadonlyMap<string, KernelSignature>;
  readonly #lowered: Readonly<Record<string, string>>;
  readonly #functions = new Map<string, KernelFunction>();
  #unloaded = false;

  /**
   * Loads `image` (a cubin, fatbin or NUL-terminated PTX) into the current context. `signatures`
   * (the compile cache keeps them) or else `source`, when given, supply the kernels' signatures;
   * otherwise pass each one to {@link getFunction}.
   *
   * @throws {CudaError} with the JIT's log when the image does not load.
   */
  constructor(
    image: Uint8Array,
    options: {
      source?: string;
      loweredNames?: Readonly<Record<string, string>>;
      signatures?: readonly KernelSignature[];
    } = {},
  ) {
    const ctx = requireContext("cuModuleLoadDataEx");
    this.#held = new Owned(loadImage(image), ctx);
    modules.registry.register(this, this.#held, this);
    this.#signatures = options.signatures !== undefined
      ? new Map(options.signatures.map((k) => [k.name, k]))
      : options.source === undefined
      ? NO_SIGNATURES
      : signaturesOf(options.source);
    this.#lowered = options.loweredNames ?? {};
  }

  /** The kernels whose signatures are known, in source order. */
  get kernels(): readonly KernelSignature[] {
    return [...this.#signatures.values()];
  }

  /** The module's context. */
  get context(): Context {
    return this.#held.ctx;
  }

  /**
   * Throws when the module was unloaded or its context was reset.
   *
   * @throws {TypeError} naming the kernel (or call) that was attempted.
   */
  checkLoaded(what: string): void {
    if (this.#unloaded || this.#held.stale) {
      const why = this.#unloaded ? "was unloaded" : "belonged to a context that was reset";
      throw new TypeError(`Cannot use ${what}: its module ${why}; load the module again`);
    }
  }

  /**
   * The kernel `name`, ready to launch (PyCUDA's `get_function`). Its parameter types come from the
   * source's `__global__` declaration, or from `signature` (`"float *x, int n"`) when given.
   *
   * @throws {TypeError} when the kernel's parameters are unknown or disagree with the compiled code.
   * @throws {CudaError} `CUDA_ERROR_NOT_FOUND` when the module has no such kernel.
   */
  getFunction(name: string, signature?: string): KernelFunction {
    this.checkLoaded(`getFunction("${name}")`);
    const known = this.#functions.get(name);
    if (known !== undefined && signature === undefined) return known;
    const symbol = this.#lowered[name] ?? name;
    const out = loaded; // the shared out-parameter: read right after the call
    const code = driver().cuModuleGetFunction(out, this.#held.handle, encoder.encode(symbol + "\0"));
    if (code === 500) {
      const names = [...this.#signatures.keys()].join(", ") || "none known";
      throw new CudaError(
        code,
        "cuModuleGetFunction",
        `: no kernel "${name}" in the module (kernels: ${names})`,
      );
    }
    checkCuda(code, "cuModuleGetFunction");
    const params = this.#paramsOf(name, signature);
    const device = this.#held.ctx.device;
    const attributes = device.attributes;
    const fn = makeKernelFunction(
      Deno.UnsafePointer.create(out[0]!)!,
      name,
      params,
      this,
      device.limits,
      device.name,
      attributes.maxSharedMemoryPerBlock,
    );
    if (signature === undefined) this.#functions.set(name, fn);
    return fn;
  }

  #paramsOf(name: string, signature: string | undefined): readonly KernelParam[] {
    if (signature !== undefined) return parseParameterList(signature, "cuda");
    const sig = this.#signatures.get(name.replace(/<.*$/, ""));
    if (sig === undefined) {
      throw new TypeError(
        `Cannot prepare "${name}": its parameters are unknown (no __global__ declaration of it was found); pass them, e.g. getFunction("${name}", "float *x, int n")`,
      );
    }
    if (sig.template) {
      throw new TypeError(
        `Cannot prepare "${name}": ${sig.name} is a template, so its parameter types depend on the instantiation; compile with { noExternC: true, nameExpressions: ["${sig.name}<float>"] } and pass the instantiated parameters, e.g. getFunction("${sig.name}<float>", "float *x, int n")`,
      );
    }
    return sig.params;
  }

  /**
   * A `__device__` or `__constant__` variable by name (PyCUDA's `get_global`).
   *
   * @throws {CudaError} `CUDA_ERROR_NOT_FOUND` when there is no such variable.
   */
  getGlobal(name: string): DeviceGlobal {
    this.checkLoaded(`getGlobal("${name}")`);
    const ptr = new BigUint64Array(1);
    const size = new BigUint64Array(1);
    const symbol = this.#lowered[name] ?? name;
    const code = driver().cuModuleGetGlobal_v2(
      ptr,
      size,
      this.#held.handle,
      new TextEncoder().encode(symbol + "\0"),
    );
    checkCuda(code, "cuModuleGetGlobal_v2");
    const global = { ptr: ptr[0]!, size: Number(size[0]!) };
    return { ...global, [devicePointer]: () => global };
  }

  /** Unloads the module; its kernels can no longer be launched. Idempotent; never throws. */
  unload(): void {
    if (this.#unloaded) return;
    this.#unloaded = true;
    modules.registry.unregister(this);
    modules.release(this.#held);
  }

  /** Same as {@link unload}. */
  [Symbol.dispose](): void {
    this.unload();
  }
}

/**
 * CUDA C++ source compiled with NVRTC and loaded (PyCUDA's `compiler.SourceModule`). The result is
 * cached in memory and on disk, so a second process loads it without compiling.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * import "@cudeno/cudeno/autoinit";
 * const mod = new cuda.SourceModule(`__global__ void add(float *a, float *b, float *c) {
 *   int idx = threadIdx.x + threadIdx.y * 4; c[idx] = a[idx] + b[idx]; }`);
 * const add = mod.getFunction("add");
 * ```
 */
export class SourceModule extends Module {
  /** The source as given. */
  readonly source: string;
  /** The compiler's warnings, empty on a cache hit. */
  readonly log: string;
  /** Whether the module came from the compile cache, and which part of it. */
  readonly cache: CompiledCode["cache"];

  /**
   * Compiles `source` for the current device (or takes it from the cache) and loads it.
   *
   * @throws {CompileError} with NVRTC's full log when the source does not compile.
   */
  constructor(source: string, options: CompileOptions = {}, compiled?: CompiledCode) {
    const code = compiled ?? compile(source, options);
    super(code.image, { source, loweredNames: code.loweredNames, signatures: code.signatures });
    this.source = source;
    this.log = code.log;
    this.cache = code.cache;
  }

  /**
   * Compiles on a worker thread, so Deno's event loop keeps running, then loads.
   *
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * import "@cudeno/cudeno/autoinit";
   * const mod = await cuda.SourceModule.compile("__global__ void k(int *x) { *x = 42; }");
   * ```
   */
  static async compile(source: string, options: CompileOptions = {}): Promise<SourceModule> {
    return new SourceModule(source, options, await compileAsync(source, options));
  }
}
