/**
 * OpenCL platforms (one per installed driver: PoCL, NVIDIA CUDA, …) and their devices.
 *
 * @module
 */

import { libopencl } from "../../ffi/opencl.ts";
import { checkCL, OpenCLError } from "./errors.ts";
import { infoString, infoU32, infoU64, infoU64Array } from "./info.ts";
import { enumerating } from "./enumeration.ts";

const PLATFORM = {
  profile: 0x0900,
  version: 0x0901,
  name: 0x0902,
  vendor: 0x0903,
  extensions: 0x0904,
} as const;

const DEVICE = {
  type: 0x1000,
  maxComputeUnits: 0x1002,
  maxWorkGroupSize: 0x1004,
  maxWorkItemSizes: 0x1005,
  maxClockFrequency: 0x100c,
  addressBits: 0x100d,
  maxMemAllocSize: 0x1010,
  globalMemCacheSize: 0x101e,
  globalMemSize: 0x101f,
  maxConstantBufferSize: 0x1020,
  localMemSize: 0x1023,
  name: 0x102b,
  vendor: 0x102c,
  driverVersion: 0x102d,
  version: 0x102f,
  extensions: 0x1030,
  openclCVersion: 0x103d,
} as const;

/** OpenCL device types, as `clGetDeviceIDs` filters them. */
export const DEVICE_TYPES = {
  default: 1n,
  cpu: 2n,
  gpu: 4n,
  accelerator: 8n,
  custom: 16n,
  all: 0xffffffffn,
} as const;

/** A device type name. */
export type DeviceType = keyof typeof DEVICE_TYPES;

const CL_DEVICE_NOT_FOUND = -1;
const CL_PLATFORM_NOT_FOUND_KHR = -1001;

/**
 * One OpenCL device (PyOpenCL's `cl.Device`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * const [device] = cl.getPlatforms()[0].getDevices();
 * console.log(device.name, device.type, device.computeUnits, device.globalMemory);
 * ```
 */
export class Device {
  /** The platform the device belongs to. */
  readonly platform: Platform;
  /** Its index among the platform's devices. */
  readonly index: number;
  readonly #handle: Deno.PointerObject;
  #maxAllocation?: bigint;

  /** Use {@link Platform.getDevices}. */
  constructor(platform: Platform, index: number, handle: Deno.PointerObject) {
    this.platform = platform;
    this.index = index;
    this.#handle = handle;
  }

  /** **UNSAFE**: the raw `cl_device_id`. */
  get unsafeHandle(): Deno.PointerObject {
    return this.#handle;
  }

  #string(param: number): string {
    return infoString(libopencl.get().clGetDeviceInfo, this.#handle, param, "clGetDeviceInfo");
  }
  #u32(param: number): number {
    return infoU32(libopencl.get().clGetDeviceInfo, this.#handle, param, "clGetDeviceInfo");
  }
  #u64(param: number): bigint {
    return infoU64(libopencl.get().clGetDeviceInfo, this.#handle, param, "clGetDeviceInfo");
  }

  /** The device's name. */
  get name(): string {
    return this.#string(DEVICE.name);
  }
  /** The device's vendor. */
  get vendor(): string {
    return this.#string(DEVICE.vendor);
  }
  /** The OpenCL version string, `OpenCL 3.0 CUDA`. */
  get version(): string {
    return this.#string(DEVICE.version);
  }
  /** The OpenCL C version string. */
  get openclCVersion(): string {
    return this.#string(DEVICE.openclCVersion);
  }
  /** The driver's version. */
  get driverVersion(): string {
    return this.#string(DEVICE.driverVersion);
  }
  /** `"gpu"`, `"cpu"`, `"accelerator"`, `"custom"` or `"default"`. */
  get type(): DeviceType {
    const bits = this.#u64(DEVICE.type);
    for (const t of ["gpu", "cpu", "accelerator", "custom", "default"] as const) {
      if (bits & DEVICE_TYPES[t]) return t;
    }
    return "default";
  }
  /** Compute units (multiprocessors, cores). */
  get computeUnits(): number {
    return this.#u32(DEVICE.maxComputeUnits);
  }
  /** Largest clock frequency, MHz. */
  get maxClockMHz(): number {
    return this.#u32(DEVICE.maxClockFrequency);
  }
  /** Global memory, bytes. */
  get globalMemory(): bigint {
    return this.#u64(DEVICE.globalMemSize);
  }
  /** Largest single buffer, bytes (asked once: every buffer's creation checks it). */
  get maxAllocation(): bigint {
    return this.#maxAllocation ??= this.#u64(DEVICE.maxMemAllocSize);
  }
  /** Local (shared) memory per work-group, bytes. */
  get localMemory(): bigint {
    return this.#u64(DEVICE.localMemSize);
  }
  /** Global memory cache, bytes. */
  get globalCache(): bigint {
    return this.#u64(DEVICE.globalMemCacheSize);
  }
  /** Constant buffer limit, bytes. */
  get constantMemory(): bigint {
    return this.#u64(DEVICE.maxConstantBufferSize);
  }
  /** Most work-items in one work-group. */
  get maxWorkGroupSize(): number {
    return Number(this.#u64(DEVICE.maxWorkGroupSize));
  }
  /** Most work-items per work-group in each dimension. */
  get maxWorkItemSizes(): number[] {
    return infoU64Array(
      libopencl.get().clGetDeviceInfo,
      this.#handle,
      DEVICE.maxWorkItemSizes,
      "clGetDeviceInfo",
    ).map(Number);
  }
  /** Pointer width on the device, bits. */
  get addressBits(): number {
    return this.#u32(DEVICE.addressBits);
  }
  /** The extensions the device supports. */
  get extensions(): string[] {
    return this.#string(DEVICE.extensions).split(/\s+/).filter((e) => e !== "");
  }
  /** Whether `double` works in kernels (`cl_khr_fp64`). */
  get supportsFloat64(): boolean {
    return this.extensions.includes("cl_khr_fp64");
  }
  /** Whether `half` arithmetic works in kernels (`cl_khr_fp16`). */
  get supportsFloat16(): boolean {
    return this.extensions.includes("cl_khr_fp16");
  }

  /** `opencl:0:0 NVIDIA H200`. */
  toString(): string {
    return `opencl:${this.platform.index}:${this.index} ${this.name}`;
  }
}

/**
 * One OpenCL platform (PyOpenCL's `cl.Platform`).
 *
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * for (const p of cl.getPlatforms()) console.log(p.name, p.version, p.getDevices().length);
 * ```
 */
export class Platform {
  /** Its index among the platforms. */
  readonly index: number;
  readonly #handle: Deno.PointerObject;

  /** Use {@link getPlatforms}. */
  constructor(index: number, handle: Deno.PointerObject) {
    this.index = index;
    this.#handle = handle;
  }

  /** **UNSAFE**: the raw `cl_platform_id`. */
  get unsafeHandle(): Deno.PointerObject {
    return this.#handle;
  }

  #string(param: number): string {
    return infoString(libopencl.get().clGetPlatformInfo, this.#handle, param, "clGetPlatformInfo");
  }

  /** The platform's name, `Portable Computing Language`. */
  get name(): string {
    return this.#string(PLATFORM.name);
  }
  /** The platform's vendor. */
  get vendor(): string {
    return this.#string(PLATFORM.vendor);
  }
  /** The OpenCL version string. */
  get version(): string {
    return this.#string(PLATFORM.version);
  }
  /** `FULL_PROFILE` or `EMBEDDED_PROFILE`. */
  get profile(): string {
    return this.#string(PLATFORM.profile);
  }
  /** The platform's extensions. */
  get extensions(): string[] {
    return this.#string(PLATFORM.extensions).split(/\s+/).filter((e) => e !== "");
  }

  /**
   * The platform's devices of `type` (default all); empty when it has none of that type. Safe to call
   * from several Workers at once: one thread of the process enumerates at a time (`enumeration.ts`).
   */
  getDevices(type: DeviceType = "all"): Device[] {
    const ids = enumerating(() => {
      const lib = libopencl.get();
      const count = new Uint32Array(1);
      const code = lib.clGetDeviceIDs(this.#handle, DEVICE_TYPES.all, 0, null, count);
      if (code === CL_DEVICE_NOT_FOUND) return new BigUint64Array(0);
      checkCL(code, "clGetDeviceIDs");
      const ids = new BigUint64Array(count[0]!);
      checkCL(lib.clGetDeviceIDs(this.#handle, DEVICE_TYPES.all, ids.length, ids, null), "clGetDeviceIDs");
      return ids;
    });
    const devices = [...ids].map((id, i) => new Device(this, i, Deno.UnsafePointer.create(id)!));
    return type === "all" ? devices : devices.filter((d) => d.type === type);
  }

  /** `opencl:0 Portable Computing Language`. */
  toString(): string {
    return `opencl:${this.index} ${this.name}`;
  }
}

const INSTALL_HINT =
  "install an OpenCL platform: on Debian/Ubuntu `sudo apt-get install pocl-opencl-icd` for the CPU, or your GPU vendor's OpenCL driver (NVIDIA's ships libnvidia-opencl.so.1; its ICD file /etc/OpenCL/vendors/nvidia.icd must name it)";

/**
 * Every OpenCL platform the ICD loader finds (one thread of the process enumerates at a time, so Workers
 * starting together all see them).
 *
 * @throws {OpenCLError} `CL_PLATFORM_NOT_FOUND_KHR` with how to install one, when there is none.
 * @example
 * ```ts
 * import * as cl from "@cudeno/cudeno/opencl";
 * console.log(cl.getPlatforms().map((p) => p.name));
 * ```
 */
export function getPlatforms(): Platform[] {
  const ids = enumerating(() => {
    const lib = libopencl.get();
    const count = new Uint32Array(1);
    const code = lib.clGetPlatformIDs(0, null, count);
    if (code === CL_PLATFORM_NOT_FOUND_KHR || (code === 0 && count[0] === 0)) {
      throw new OpenCLError(
        CL_PLATFORM_NOT_FOUND_KHR,
        "clGetPlatformIDs",
        `: no OpenCL platform is installed; ${INSTALL_HINT}`,
      );
    }
    checkCL(code, "clGetPlatformIDs");
    const ids = new BigUint64Array(count[0]!);
    checkCL(lib.clGetPlatformIDs(ids.length, ids, null), "clGetPlatformIDs");
    return ids;
  });
  return [...ids].map((id, i) => new Platform(i, Deno.UnsafePointer.create(id)!));
}
