/**
 * OpenCL programs: OpenCL C source built for a context's devices, with the build log on failure,
 * and the kernels it defines.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL, OpenCLError } from "./errors.ts";
import { type InfoQuery, infoString } from "./info.ts";
import type { Context } from "./context.ts";
import type { Device } from "./platform.ts";
import { type Kernel, makeKernel } from "./kernel.ts";
import { type KernelSignature, parseKernels } from "../kernel/signature.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";
import { pointAtUserFile } from "./build_log.ts";
import { withoutCompilerSummary } from "./quiet_build.ts";

const CL_PROGRAM_BUILD_LOG = 0x1183;
const CL_BUILD_PROGRAM_FAILURE = -11;

const programs = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseProgram(handle));

/**
 * How a {@link Program} names its source.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const source = Deno.readTextFileSync("kernels/saxpy.cl");
 * const prg = new cl.Program(ctx, source, { filename: "kernels/saxpy.cl" }).build();
 * ```
 */
export interface ProgramOptions {
  /**
   * The file the source came from, which build errors and warnings name with the line and column
   * (`saxpy.cl:3:27: error: ...`). Default `"<source>"`.
   */
  readonly filename?: string;
}

/**
 * OpenCL C source for a context (PyOpenCL's `cl.Program`). Call {@link build}, then
 * {@link getKernel}. Build errors and warnings name `options.filename` (default `<source>`) and the
 * line and column in it, never the driver's temporary copy.
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * const prg = new cl.Program(ctx, "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }").build();
 * const twice = prg.getKernel("twice");
 * ```
 */
export class Program {
  /** The context it is built for. */
  readonly context: Context;
  /** The OpenCL C source. */
  readonly source: string;
  /** The name build errors and warnings give the source: the file it came from, or `<source>`. */
  readonly filename: string;
  readonly #handle: Deno.PointerObject;
  #signatures: readonly KernelSignature[] | undefined;
  #built = false;
  #released = false;
  #kernels = new Map<string, Kernel>();

  /** Creates the program (it is compiled by {@link build}); `options.filename` names it in build logs. */
  constructor(context: Context, source: string, options: ProgramOptions = {}) {
    const text = new TextEncoder().encode(source + "\0");
    const strings = new BigUint64Array([Deno.UnsafePointer.value(Deno.UnsafePointer.of(text))]);
    const err = new Int32Array(1);
    const handle = libopencl.get().clCreateProgramWithSource(context.unsafeHandle, 1, strings, null, err);
    checkCL(err[0]!, "clCreateProgramWithSource");
    this.context = context;
    this.source = source;
    this.filename = options.filename ?? "<source>";
    this.#handle = handle!;
    programs.register(this, this.#handle, this);
  }

  /**
   * **UNSAFE**: the raw `cl_program`.
   *
   * @throws {TypeError} when the program was released.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#released) {
      throw new TypeError("Cannot use an OpenCL Program that was released: create a new one");
    }
    return this.#handle;
  }

  /**
   * The kernels the source declares, with their parameter types.
   *
   * @throws {SyntaxError} when a `__kernel` declaration does not parse.
   */
  get kernels(): readonly KernelSignature[] {
    this.#signatures ??= parseKernels(this.source, "opencl");
    return this.#signatures;
  }

  /**
   * The build log of `device` (default: the context's first device): warnings after a successful
   * build, naming {@link filename} and the line and column.
   */
  buildLog(device: Device = this.context.device): string {
    const lib = libopencl.get();
    const program = this.unsafeHandle;
    const query: InfoQuery = (_, param, size, value, sizeRet) =>
      lib.clGetProgramBuildInfo(program, device.unsafeHandle, param, size, value, sizeRet);
    return pointAtUserFile(
      infoString(query, null, CL_PROGRAM_BUILD_LOG, "clGetProgramBuildInfo"),
      this.filename,
    );
  }

  /**
   * Compiles the program for the context's devices with `options` (`["-cl-fast-relaxed-math"]`).
   * The compiler's own summary lines (PoCL's `1 warning generated.`) are kept off standard error
   * where cudeno can (Linux, main thread); the diagnostics themselves are in {@link buildLog}.
   *
   * @throws {OpenCLError} `CL_BUILD_PROGRAM_FAILURE` carrying the compiler's log in `log` and the
   * message, naming {@link filename} and the line and column of each error, and the source in `source`.
   */
  build(options: string | readonly string[] = []): this {
    const text = typeof options === "string" ? options : options.join(" ");
    const devices = this.context.devices;
    const ids = new BigUint64Array(devices.map((d) => Deno.UnsafePointer.value(d.unsafeHandle)));
    const program = this.unsafeHandle;
    const flags = new TextEncoder().encode(text + "\0");
    const code = withoutCompilerSummary(() =>
      libopencl.get().clBuildProgram(program, ids.length, ids, flags, null, null)
    );
    const detail = ` (${this.filename}, options: "${text}")`;
    if (code === CL_BUILD_PROGRAM_FAILURE) {
      const log = devices.map((d) => `${d.name}:\n${this.buildLog(d)}`).join("\n");
      throw new OpenCLError(code, "clBuildProgram", detail, log, this.source);
    }
    checkCL(code, "clBuildProgram", detail);
    this.#built = true;
    return this;
  }

  /**
   * The kernel `name`, as a function `(queue, globalSize, localSize, ...args) => Event` whose
   * argument types come from the kernel's declaration (PyOpenCL's `prg.name`).
   *
   * @throws {TypeError} when the program is not built or declares no such kernel.
   */
  getKernel(name: string): Kernel {
    if (!this.#built) throw new TypeError(`Cannot get kernel "${name}": build() the program first`);
    const known = this.#kernels.get(name);
    if (known !== undefined) return known;
    const sig = this.kernels.find((k) => k.name === name);
    if (sig === undefined) {
      throw new TypeError(
        `Cannot get kernel "${name}": the program declares ${
          this.kernels.map((k) => k.name).join(", ") || "no kernels"
        }`,
      );
    }
    const kernel = makeKernel(this, sig);
    this.#kernels.set(name, kernel);
    return kernel;
  }

  /** Releases the program and its kernels. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    for (const k of this.#kernels.values()) k.release();
    this.#released = true;
    programs.unregister(this);
    quietly(() => libopencl.get().clReleaseProgram(this.#handle));
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}
