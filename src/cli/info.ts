/**
 * `cudeno info` (and `deno task info`): the CUDA driver, NVRTC and each CUDA device, each OpenCL
 * platform and device, and the device cudeno would use, as text or one JSON object. Byte counts are
 * JSON numbers (exact below 2^53 bytes, 8 PiB). `--require cuda|opencl` makes the absence of that
 * backend an error (status 1), naming the reason and the library paths tried.
 *
 * @module
 */

import * as cuda from "../cuda/mod.ts";
import * as cl from "../opencl/mod.ts";
import { parseInfoFlags } from "./args.ts";
import { defaultCudaOrdinal } from "./backend.ts";
import { INFO_HELP } from "./help.ts";
import type { CliIO } from "./io.ts";

/**
 * Why a backend or library is not usable: the loader's or driver's message, and the library paths
 * tried when the library itself did not load.
 *
 * @example
 * ```ts
 * import type { Absence } from "./info.ts";
 * const absence: Absence = { reason: "the CUDA driver reports no devices" };
 * ```
 */
export interface Absence {
  /** One sentence. */
  readonly reason: string;
  /** Each path or soname tried, with why it did not load. */
  readonly tried?: readonly { readonly path: string; readonly reason: string }[];
}

/**
 * One CUDA device.
 *
 * @example
 * ```ts
 * import type { CudaDeviceInfo } from "./info.ts";
 * const sms = (d: CudaDeviceInfo) => d.attributes.multiprocessorCount;
 * ```
 */
export interface CudaDeviceInfo {
  /** `cuda:N`. */
  readonly id: string;
  /** The ordinal. */
  readonly ordinal: number;
  /** The product name. */
  readonly name: string;
  /** `"9.0"`. */
  readonly computeCapability: string;
  /** Global memory, bytes. */
  readonly totalMemory: number;
  /** Free global memory, bytes; null when no context could be made to ask. */
  readonly freeMemory: number | null;
  /** The PCI bus id. */
  readonly pciBusId: string;
  /** The UUID as nvidia-smi prints it. */
  readonly uuid: string;
  /** Every attribute cudeno reads, by name (`multiprocessorCount`, `maxThreadsPerBlock`, ...). */
  readonly attributes: Readonly<Record<cuda.DeviceAttributeName, number>>;
}

/**
 * The CUDA side: whether it is usable, the driver and NVRTC versions, and the devices.
 *
 * @example
 * ```ts
 * import type { CudaInfo } from "./info.ts";
 * const count = (c: CudaInfo) => c.devices.length;
 * ```
 */
export interface CudaInfo {
  /** Whether the driver loads and reports at least one device. */
  readonly available: boolean;
  /** Why not, when it is not. */
  readonly absence?: Absence;
  /** The driver's CUDA version, `"13.0"`. */
  readonly driverVersion?: string;
  /** NVRTC's version, or why it did not load. */
  readonly nvrtc: { readonly version: string } | { readonly absence: Absence };
  /** The devices. */
  readonly devices: readonly CudaDeviceInfo[];
}

/**
 * One OpenCL device.
 *
 * @example
 * ```ts
 * import type { OpenCLDeviceInfo } from "./info.ts";
 * const isGpu = (d: OpenCLDeviceInfo) => d.type === "gpu";
 * ```
 */
export interface OpenCLDeviceInfo {
  /** `opencl:P:D`. */
  readonly id: string;
  /** The name. */
  readonly name: string;
  /** `gpu`, `cpu`, `accelerator`, `custom` or `default`. */
  readonly type: cl.DeviceType;
  /** The vendor. */
  readonly vendor: string;
  /** The OpenCL version string. */
  readonly version: string;
  /** The driver's version. */
  readonly driverVersion: string;
  /** Compute units. */
  readonly computeUnits: number;
  /** Largest clock frequency, MHz. */
  readonly maxClockMHz: number;
  /** Global memory, bytes. */
  readonly globalMemory: number;
  /** Largest single buffer, bytes. */
  readonly maxAllocation: number;
  /** Local memory per work-group, bytes. */
  readonly localMemory: number;
  /** Most work-items in a work-group. */
  readonly maxWorkGroupSize: number;
  /** Most work-items per dimension. */
  readonly maxWorkItemSizes: readonly number[];
  /** The extensions. */
  readonly extensions: readonly string[];
}

/**
 * One OpenCL platform and its devices.
 *
 * @example
 * ```ts
 * import type { OpenCLPlatformInfo } from "./info.ts";
 * const names = (p: OpenCLPlatformInfo) => p.devices.map((d) => d.name);
 * ```
 */
export interface OpenCLPlatformInfo {
  /** `opencl:P`. */
  readonly id: string;
  /** The name. */
  readonly name: string;
  /** The vendor. */
  readonly vendor: string;
  /** The OpenCL version string. */
  readonly version: string;
  /** The devices. */
  readonly devices: readonly OpenCLDeviceInfo[];
}

/**
 * The OpenCL side: whether there is a device, and the platforms.
 *
 * @example
 * ```ts
 * import type { OpenCLInfo } from "./info.ts";
 * const count = (o: OpenCLInfo) => o.platforms.flatMap((p) => p.devices).length;
 * ```
 */
export interface OpenCLInfo {
  /** Whether the ICD loader loads and some platform has a device. */
  readonly available: boolean;
  /** Why not, when it is not. */
  readonly absence?: Absence;
  /** The platforms. */
  readonly platforms: readonly OpenCLPlatformInfo[];
}

/**
 * Everything `cudeno info` reports.
 *
 * @example
 * ```ts
 * import { collectInfo, type InfoReport } from "./info.ts";
 * const report: InfoReport = collectInfo();
 * console.log(report.best?.id ?? report.bestAbsence?.reason);
 * ```
 */
export interface InfoReport {
  /** The CUDA side. */
  readonly cuda: CudaInfo;
  /** The OpenCL side. */
  readonly opencl: OpenCLInfo;
  /** The device cudeno would use: CUDA's (`CUDENO_DEVICE`, else 0) if CUDA works, else `chooseDevice()`'s. */
  readonly best: { readonly backend: "cuda" | "opencl"; readonly id: string; readonly name: string } | null;
  /** Why there is none, when there is none. */
  readonly bestAbsence?: Absence;
}

function absence(error: unknown): Absence {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.split("\n")[0]!.trim().replace(/\.$/, "");
  if (error instanceof cuda.LibraryNotFoundError) {
    return { reason, tried: error.tried.map((t) => ({ path: t.path, reason: t.reason })) };
  }
  return { reason };
}

function version([major, minor]: [number, number]): string {
  return `${major}.${minor}`;
}

function nvrtcInfo(): CudaInfo["nvrtc"] {
  try {
    return { version: version(cuda.nvrtcVersion()) };
  } catch (error) {
    return { absence: absence(error) };
  }
}

function freeMemory(ordinal: number): number | null {
  let context: cuda.Context | undefined;
  try {
    context = cuda.useDevice(ordinal);
    return Number(cuda.memGetInfo().free);
  } catch {
    return null; // a device in exclusive use, or out of memory for a context: the rest still reports
  } finally {
    context?.release();
  }
}

function cudaDevice(ordinal: number): CudaDeviceInfo {
  const device = new cuda.Device(ordinal);
  return {
    id: `cuda:${ordinal}`,
    ordinal,
    name: device.name,
    computeCapability: device.computeCapability.join("."),
    totalMemory: Number(device.totalMemory),
    freeMemory: freeMemory(ordinal),
    pciBusId: device.pciBusId,
    uuid: device.uuid,
    attributes: device.attributes,
  };
}

function cudaInfo(): CudaInfo {
  const nvrtc = nvrtcInfo();
  try {
    cuda.init();
    const count = cuda.Device.count();
    const driverVersion = version(cuda.driverVersion());
    if (count === 0) {
      return {
        available: false,
        absence: { reason: "the CUDA driver reports no devices" },
        driverVersion,
        nvrtc,
        devices: [],
      };
    }
    const devices = Array.from({ length: count }, (_, i) => cudaDevice(i));
    return { available: true, driverVersion, nvrtc, devices };
  } catch (error) {
    if (!(error instanceof cuda.LibraryNotFoundError || error instanceof cuda.CudaError)) throw error;
    return { available: false, absence: absence(error), nvrtc, devices: [] };
  }
}

function openclDevice(p: cl.Platform, d: cl.Device): OpenCLDeviceInfo {
  return {
    id: `opencl:${p.index}:${d.index}`,
    name: d.name,
    type: d.type,
    vendor: d.vendor,
    version: d.version,
    driverVersion: d.driverVersion,
    computeUnits: d.computeUnits,
    maxClockMHz: d.maxClockMHz,
    globalMemory: Number(d.globalMemory),
    maxAllocation: Number(d.maxAllocation),
    localMemory: Number(d.localMemory),
    maxWorkGroupSize: d.maxWorkGroupSize,
    maxWorkItemSizes: d.maxWorkItemSizes,
    extensions: d.extensions,
  };
}

function openclInfo(): OpenCLInfo {
  let platforms: cl.Platform[];
  try {
    platforms = cl.getPlatforms();
  } catch (error) {
    if (!(error instanceof cl.LibraryNotFoundError || error instanceof cl.OpenCLError)) throw error;
    return { available: false, absence: absence(error), platforms: [] };
  }
  const reports = platforms.map((p) => ({
    id: `opencl:${p.index}`,
    name: p.name,
    vendor: p.vendor,
    version: p.version,
    devices: p.getDevices().map((d) => openclDevice(p, d)),
  }));
  const available = reports.some((p) => p.devices.length > 0);
  return available
    ? { available, platforms: reports }
    : { available, absence: { reason: "the OpenCL platforms report no devices" }, platforms: reports };
}

function bestDevice(report: Pick<InfoReport, "cuda" | "opencl">): Pick<InfoReport, "best" | "bestAbsence"> {
  if (report.cuda.available) {
    const ordinal = defaultCudaOrdinal();
    const device = report.cuda.devices.find((d) => d.ordinal === ordinal);
    if (device !== undefined) return { best: { backend: "cuda", id: device.id, name: device.name } };
    return {
      best: null,
      bestAbsence: {
        reason: `CUDENO_DEVICE=${ordinal} names no CUDA device (there are ${report.cuda.devices.length})`,
      },
    };
  }
  if (report.opencl.available) {
    try {
      const d = cl.chooseDevice();
      return { best: { backend: "opencl", id: `opencl:${d.platform.index}:${d.index}`, name: d.name } };
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return { best: null, bestAbsence: absence(error) };
    }
  }
  return { best: null, bestAbsence: { reason: "neither CUDA nor OpenCL has a usable device here" } };
}

/**
 * Looks at both backends. Absent drivers, libraries and devices are reported, never thrown.
 *
 * @returns The report.
 *
 * @example
 * ```ts
 * import { collectInfo } from "./info.ts";
 * const { cuda, opencl } = collectInfo();
 * console.log(cuda.available, opencl.platforms.length);
 * ```
 */
export function collectInfo(): InfoReport {
  const sides = { cuda: cudaInfo(), opencl: openclInfo() };
  return { ...sides, ...bestDevice(sides) };
}

function bytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(2)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(n % 1024 === 0 ? 0 : 2)} KiB`;
  return `${n} B`;
}

function absenceLines(what: string, a: Absence): string[] {
  const tried = a.tried === undefined ? [] : [`  tried ${a.tried.map((t) => t.path).join(", ")}`];
  return [`${what}: not usable: ${a.reason}`, ...tried];
}

function table(rows: readonly (readonly [string, string])[], indent: string): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`);
}

function cudaLines(c: CudaInfo): string[] {
  const lines = c.driverVersion === undefined ? [] : [`CUDA: driver ${c.driverVersion}`];
  if (c.absence !== undefined) lines.push(...absenceLines("CUDA", c.absence));
  if ("version" in c.nvrtc) lines.push(`NVRTC ${c.nvrtc.version}`);
  else lines.push(...absenceLines("NVRTC", c.nvrtc.absence));
  for (const d of c.devices) {
    const a = d.attributes;
    const free = d.freeMemory === null ? "free unknown" : `${bytes(d.freeMemory)} free`;
    lines.push(`  ${d.id}  ${d.name}, compute capability ${d.computeCapability}`);
    lines.push(...table([
      ["memory", `${bytes(d.totalMemory)} total, ${free}`],
      ["PCI bus id", d.pciBusId],
      ["UUID", d.uuid],
      ["multiprocessors", `${a.multiprocessorCount} (up to ${a.maxThreadsPerMultiprocessor} threads each)`],
      ["threads", `warp ${a.warpSize}, up to ${a.maxThreadsPerBlock} per block`],
      ["block limits", `${a.maxBlockDimX} × ${a.maxBlockDimY} × ${a.maxBlockDimZ}`],
      ["grid limits", `${a.maxGridDimX} × ${a.maxGridDimY} × ${a.maxGridDimZ}`],
      [
        "shared memory",
        `${bytes(a.maxSharedMemoryPerBlock)} per block (${bytes(a.maxSharedMemoryPerBlockOptin)} opt-in)`,
      ],
      ["registers", `${a.maxRegistersPerBlock} per block`],
      ["clock", `${a.clockRateKHz / 1000} MHz`],
      ["memory clock", `${a.memoryClockRateKHz / 1000} MHz, ${a.globalMemoryBusWidthBits}-bit bus`],
      ["L2 cache", bytes(a.l2CacheSizeBytes)],
    ], "      "));
  }
  return lines;
}

function openclLines(o: OpenCLInfo): string[] {
  const lines = o.absence === undefined ? ["OpenCL"] : absenceLines("OpenCL", o.absence);
  for (const p of o.platforms) {
    lines.push(`  ${p.id}  ${p.name} (${p.vendor}), ${p.version}`);
    for (const d of p.devices) {
      lines.push(`    ${d.id}  ${d.name} (${d.type})`);
      lines.push(...table([
        ["vendor", d.vendor],
        ["version", `${d.version}, driver ${d.driverVersion}`],
        ["compute units", `${d.computeUnits} at up to ${d.maxClockMHz} MHz`],
        ["global memory", `${bytes(d.globalMemory)} (largest buffer ${bytes(d.maxAllocation)})`],
        ["local memory", bytes(d.localMemory)],
        ["work-group size", `up to ${d.maxWorkGroupSize} (${d.maxWorkItemSizes.join(" × ")} per dimension)`],
        ["extensions", String(d.extensions.length)],
      ], "        "));
    }
  }
  return lines;
}

/**
 * The report as text: CUDA, then OpenCL, then the device cudeno would use.
 *
 * @example
 * ```ts
 * import { collectInfo, formatInfo } from "./info.ts";
 * console.log(formatInfo(collectInfo()));
 * ```
 */
export function formatInfo(report: InfoReport): string {
  const best = report.best === null
    ? `cudeno would use: no device (${report.bestAbsence?.reason})`
    : `cudeno would use: ${report.best.id} ${report.best.name} (${
      report.best.backend === "cuda" ? "CUDA" : "OpenCL"
    })`;
  return [...cudaLines(report.cuda), "", ...openclLines(report.opencl), "", best].join("\n");
}

/**
 * `cudeno info`: prints the report (text, or JSON with `--json`); with `--require cuda|opencl`, then
 * fails when that backend has no usable device, saying why and which library paths were tried.
 *
 * @param args The words after `info`.
 * @param io Where to print.
 * @returns 0, or 1 when a required backend is not usable.
 * @throws {UsageError} For a bad flag.
 *
 * @example
 * ```ts
 * import { infoCommand } from "./info.ts";
 * import { consoleIO } from "./io.ts";
 * const status = infoCommand(["--require", "opencl"], consoleIO);
 * ```
 */
export function infoCommand(args: readonly string[], io: CliIO): number {
  const flags = parseInfoFlags(args);
  if (flags.help) {
    io.out(INFO_HELP);
    return 0;
  }
  const report = collectInfo();
  io.out(flags.json ? JSON.stringify(report) : formatInfo(report));
  if (flags.require === undefined) return 0;
  const side = report[flags.require];
  if (side.available) return 0;
  const name = flags.require === "cuda" ? "CUDA" : "OpenCL";
  const tried = (side.absence?.tried ?? []).map((t) => `  tried ${t.path}: ${t.reason}`);
  io.err(
    [
      `cudeno: ${name} is required (--require ${flags.require}) but not usable here: ${side.absence?.reason}`,
      ...tried,
    ]
      .join("\n"),
  );
  return 1;
}
