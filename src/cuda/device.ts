/**
 * CUDA devices: count, name, compute capability, memory, PCI bus id, UUID and attributes.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import type { DimLimits } from "../kernel/dims.ts";
import { Context } from "./context.ts";

/** `CUdevice_attribute` numbers (cuda.h) under the names cudeno reports them by. */
export const DEVICE_ATTRIBUTES = {
  maxThreadsPerBlock: 1,
  maxBlockDimX: 2,
  maxBlockDimY: 3,
  maxBlockDimZ: 4,
  maxGridDimX: 5,
  maxGridDimY: 6,
  maxGridDimZ: 7,
  maxSharedMemoryPerBlock: 8,
  totalConstantMemory: 9,
  warpSize: 10,
  maxRegistersPerBlock: 12,
  clockRateKHz: 13,
  multiprocessorCount: 16,
  integrated: 18,
  computeMode: 20,
  concurrentKernels: 31,
  eccEnabled: 32,
  pciBusId: 33,
  pciDeviceId: 34,
  memoryClockRateKHz: 36,
  globalMemoryBusWidthBits: 37,
  l2CacheSizeBytes: 38,
  maxThreadsPerMultiprocessor: 39,
  asyncEngineCount: 40,
  unifiedAddressing: 41,
  pciDomainId: 50,
  computeCapabilityMajor: 75,
  computeCapabilityMinor: 76,
  maxSharedMemoryPerMultiprocessor: 81,
  maxRegistersPerMultiprocessor: 82,
  managedMemory: 83,
  cooperativeLaunch: 95,
  maxSharedMemoryPerBlockOptin: 97,
  maxBlocksPerMultiprocessor: 106,
} as const;

/** The name of one reported attribute. */
export type DeviceAttributeName = keyof typeof DEVICE_ATTRIBUTES;

function decodeCString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/**
 * One CUDA device, by ordinal (PyCUDA's `driver.Device`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * const dev = new cuda.Device(0);
 * console.log(dev.name, dev.computeCapability, dev.totalMemory, dev.attributes.multiprocessorCount);
 * ```
 */
export class Device {
  /** The device's ordinal. */
  readonly ordinal: number;
  readonly #handle: number;
  #attributes: Readonly<Record<DeviceAttributeName, number>> | undefined;

  /**
   * Picks device `ordinal` (0 is the first, and the default).
   *
   * @throws {RangeError} when there is no such device, naming how many there are.
   */
  constructor(ordinal = 0) {
    const count = Device.count();
    if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= count) {
      throw new RangeError(
        `Cannot open CUDA device ${ordinal}: this machine has ${count} device${
          count === 1 ? "" : "s"
        } (ordinals 0 to ${count - 1})`,
      );
    }
    const out = new Int32Array(1);
    checkCuda(driver().cuDeviceGet(out, ordinal), "cuDeviceGet");
    this.ordinal = ordinal;
    this.#handle = out[0]!;
  }

  /**
   * How many CUDA devices the driver sees.
   *
   * @example
   * ```ts
   * import * as cuda from "@cudeno/cudeno/cuda";
   * console.log(cuda.Device.count());
   * ```
   */
  static count(): number {
    const out = new Int32Array(1);
    checkCuda(driver().cuDeviceGetCount(out), "cuDeviceGetCount");
    return out[0]!;
  }

  /** **UNSAFE**: the raw `CUdevice` for direct driver calls. */
  get unsafeHandle(): number {
    return this.#handle;
  }

  /** The product name, `NVIDIA H200`. */
  get name(): string {
    const buf = new Uint8Array(256);
    checkCuda(driver().cuDeviceGetName(buf, buf.length, this.#handle), "cuDeviceGetName");
    return decodeCString(buf);
  }

  /** Compute capability as `[major, minor]`, `[9, 0]` for Hopper. */
  get computeCapability(): [number, number] {
    return [this.attributes.computeCapabilityMajor, this.attributes.computeCapabilityMinor];
  }

  /** Global memory in bytes. */
  get totalMemory(): bigint {
    const out = new BigUint64Array(1);
    checkCuda(driver().cuDeviceTotalMem_v2(out, this.#handle), "cuDeviceTotalMem_v2");
    return out[0]!;
  }

  /** The PCI bus id, `0000:00:06.0`. */
  get pciBusId(): string {
    const buf = new Uint8Array(64);
    checkCuda(driver().cuDeviceGetPCIBusId(buf, buf.length, this.#handle), "cuDeviceGetPCIBusId");
    return decodeCString(buf);
  }

  /** The device UUID as `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, as nvidia-smi prints it. */
  get uuid(): string {
    const b = new Uint8Array(16);
    checkCuda(driver().cuDeviceGetUuid_v2(b, this.#handle), "cuDeviceGetUuid_v2");
    const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `GPU-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
      hex.slice(20)
    }`;
  }

  /** Reads one `CUdevice_attribute` by number. */
  getAttribute(attribute: number): number {
    const out = new Int32Array(1);
    checkCuda(driver().cuDeviceGetAttribute(out, attribute, this.#handle), "cuDeviceGetAttribute");
    return out[0]!;
  }

  /** The attributes cudeno reports, read once and kept. */
  get attributes(): Readonly<Record<DeviceAttributeName, number>> {
    if (this.#attributes === undefined) {
      const entries = Object.entries(DEVICE_ATTRIBUTES).map(([name, id]) => [name, this.getAttribute(id)]);
      this.#attributes = Object.freeze(Object.fromEntries(entries)) as Record<DeviceAttributeName, number>;
    }
    return this.#attributes;
  }

  /** The launch limits that launches are checked against. */
  get limits(): DimLimits {
    const a = this.attributes;
    return {
      block: [a.maxBlockDimX, a.maxBlockDimY, a.maxBlockDimZ],
      threadsPerBlock: a.maxThreadsPerBlock,
      grid: [a.maxGridDimX, a.maxGridDimY, a.maxGridDimZ],
    };
  }

  /**
   * Retains this device's primary context and makes it current (PyCUDA's `Device.make_context()`, on
   * the primary context that every CUDA library shares).
   */
  makeContext(): Context {
    const ctx = Context.primary(this);
    ctx.setCurrent();
    return ctx;
  }

  /** Retains this device's primary context without making it current (PyCUDA's `retain_primary_context()`). */
  retainPrimaryContext(): Context {
    return Context.primary(this);
  }

  /** Whether this device can read and write `peer`'s memory directly. */
  canAccessPeer(peer: Device): boolean {
    const out = new Int32Array(1);
    checkCuda(driver().cuDeviceCanAccessPeer(out, this.#handle, peer.#handle), "cuDeviceCanAccessPeer");
    return out[0] === 1;
  }

  /** `Device(0) NVIDIA H200`. */
  toString(): string {
    return `Device(${this.ordinal}) ${this.name}`;
  }
}
