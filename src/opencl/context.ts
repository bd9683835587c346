/**
 * OpenCL contexts: a set of devices of one platform that share buffers and programs.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL } from "./errors.ts";
import { type Device, getPlatforms } from "./platform.ts";
import { tryGetEnv } from "../../ffi/load.ts";
import { quietly, safeRegistry } from "../kernel/cleanup.ts";

const CL_CONTEXT_PLATFORM = 0x1084n;

const contexts = safeRegistry<Deno.PointerObject>((handle) => libopencl.get().clReleaseContext(handle));

/**
 * An OpenCL context over one or more devices of one platform (PyOpenCL's `cl.Context`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const device = cl.getPlatforms()[0].getDevices()[0];
 * using ctx = new cl.Context([device]);
 * ```
 */
export class Context {
  /** The context's devices. */
  readonly devices: readonly Device[];
  readonly #handle: Deno.PointerObject;
  #released = false;

  /**
   * Creates a context for `devices` (all of one platform).
   *
   * @throws {RangeError} when the list is empty or spans platforms.
   */
  constructor(devices: Device | readonly Device[]) {
    const list = Array.isArray(devices) ? [...devices] : [devices as Device];
    if (list.length === 0) {
      throw new RangeError("Cannot create an OpenCL context with no devices: pass at least one Device");
    }
    const platform = list[0]!.platform;
    if (list.some((d) => d.platform.index !== platform.index)) {
      throw new RangeError("Cannot create an OpenCL context across platforms: pass devices of one platform");
    }
    const props = new BigUint64Array([
      CL_CONTEXT_PLATFORM,
      Deno.UnsafePointer.value(platform.unsafeHandle),
      0n,
    ]);
    const ids = new BigUint64Array(list.map((d) => Deno.UnsafePointer.value(d.unsafeHandle)));
    const err = new Int32Array(1);
    const handle = libopencl.get().clCreateContext(props, ids.length, ids, null, null, err);
    checkCL(err[0]!, "clCreateContext");
    this.devices = Object.freeze(list);
    this.#handle = handle!;
    contexts.register(this, this.#handle, this);
  }

  /**
   * **UNSAFE**: the raw `cl_context`.
   *
   * @throws {TypeError} when the context was released.
   */
  get unsafeHandle(): Deno.PointerObject {
    if (this.#released) {
      throw new TypeError("Cannot use an OpenCL Context that was released: create a new one");
    }
    return this.#handle;
  }

  /** The first device, the one queues use by default. */
  get device(): Device {
    return this.devices[0]!;
  }

  /** Releases cudeno's reference; buffers and programs made from it keep working. Idempotent; never throws. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    contexts.unregister(this);
    quietly(() => libopencl.get().clReleaseContext(this.#handle));
  }

  /** Same as {@link release}. */
  [Symbol.dispose](): void {
    this.release();
  }
}

/**
 * Picks a device: `CUDENO_OPENCL_DEVICE="P:D"` (platform and device index) when set, else the first
 * GPU of any platform, else the first device.
 *
 * @throws {RangeError} when `CUDENO_OPENCL_DEVICE` names no device.
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * console.log(cl.chooseDevice().name);
 * ```
 */
export function chooseDevice(): Device {
  const platforms = getPlatforms();
  const chosen = tryGetEnv("CUDENO_OPENCL_DEVICE");
  if (chosen !== undefined) {
    const m = /^(\d+):(\d+)$/.exec(chosen.trim());
    const device = m === null ? undefined : platforms[Number(m[1])]?.getDevices()[Number(m[2])];
    if (device === undefined) {
      const known = platforms.flatMap((p) => p.getDevices().map((d) => `${p.index}:${d.index} ${d.name}`));
      throw new RangeError(
        `Cannot use CUDENO_OPENCL_DEVICE="${chosen}": give "P:D", platform and device index, one of: ${
          known.join("; ")
        }`,
      );
    }
    return device;
  }
  const all = platforms.flatMap((p) => p.getDevices());
  const gpu = all.find((d) => d.type === "gpu");
  const first = gpu ?? all[0];
  if (first === undefined) {
    throw new RangeError("Cannot choose an OpenCL device: the installed platforms report no devices");
  }
  return first;
}

/**
 * A context on {@link chooseDevice}'s device (PyOpenCL's `create_some_context`, without prompting).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const ctx = cl.createSomeContext();
 * console.log(ctx.device.name);
 * ```
 */
export function createSomeContext(): Context {
  return new Context([chooseDevice()]);
}
