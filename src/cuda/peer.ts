/**
 * Copies between the memory of two devices' contexts (PyCUDA's `memcpy_peer`): direct over NVLink or
 * PCIe where peer access is enabled, staged by the driver otherwise.
 *
 * @module
 */

import { driver } from "./driver.ts";
import { checkCuda } from "./errors.ts";
import type { Context } from "./context.ts";
import type { Stream } from "./stream.ts";
import { refuseWhileCapturing } from "./capturing.ts";
import { copyBytes, copyOnStream, type DeviceTarget, resolveDevice, streamHandle } from "./memory.ts";

/** Options for peer copies between devices. */
export interface PeerCopyOptions {
  /** The destination's context, when `dst` is a raw address. Default: the destination allocation's own. */
  readonly dstContext?: Context;
  /** The source's context, when `src` is a raw address. Default: the source allocation's own. */
  readonly srcContext?: Context;
  /** For {@link memcpyPeerAsync}: the stream to queue on. Default: the legacy default stream. */
  readonly stream?: Stream;
}

function peerArgs(
  dst: DeviceTarget,
  src: DeviceTarget,
  bytes: number | undefined,
  options: PeerCopyOptions,
  what: string,
) {
  const d = resolveDevice(dst, `the destination of ${what}`);
  const s = resolveDevice(src, `the source of ${what}`);
  const dstCtx = options.dstContext ?? d.context;
  const srcCtx = options.srcContext ?? s.context;
  if (dstCtx === undefined || srcCtx === undefined) {
    throw new TypeError(`Cannot ${what} a raw address: pass { dstContext, srcContext }`);
  }
  const n = copyBytes(dst, src, bytes, what);
  return { ...n, dstCtx: dstCtx.unsafeHandle, srcCtx: srcCtx.unsafeHandle };
}

/**
 * Copies `bytes` (default: the smaller side) between memory of two devices' contexts (PyCUDA's
 * `memcpy_peer`); direct over NVLink/PCIe when peer access is enabled, staged otherwise.
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * cuda.useDevice(0);
 * const a = cuda.memAlloc(1024);
 * cuda.useDevice(cuda.Device.count() - 1);
 * const b = cuda.memAlloc(1024);
 * cuda.memcpyPeer(b, a);
 * ```
 */
export function memcpyPeer(
  dst: DeviceTarget,
  src: DeviceTarget,
  bytes?: number,
  options: PeerCopyOptions = {},
): void {
  refuseWhileCapturing(
    "copy with memcpyPeer()",
    copyOnStream("memcpyPeerAsync(dst, src, bytes, { stream })"),
  );
  const p = peerArgs(dst, src, bytes, options, "memcpyPeer()");
  if (p.bytes === 0) return;
  checkCuda(driver().cuMemcpyPeer(p.dst, p.dstCtx, p.src, p.srcCtx, BigInt(p.bytes)), "cuMemcpyPeer");
}

/**
 * Queues a peer copy on `options.stream` (PyCUDA's `memcpy_peer_async`).
 *
 * @example
 * ```ts
 * import * as cuda from "@cudeno/cudeno/cuda";
 * cuda.useDevice(0);
 * const a = cuda.memAlloc(1024), b = cuda.memAlloc(1024);
 * const stream = new cuda.Stream();
 * cuda.memcpyPeerAsync(b, a, 1024, { stream });
 * await stream.completed();
 * ```
 */
export function memcpyPeerAsync(
  dst: DeviceTarget,
  src: DeviceTarget,
  bytes?: number,
  options: PeerCopyOptions = {},
): void {
  const p = peerArgs(dst, src, bytes, options, "memcpyPeerAsync()");
  if (p.bytes === 0) return;
  checkCuda(
    driver().cuMemcpyPeerAsync(
      p.dst,
      p.dstCtx,
      p.src,
      p.srcCtx,
      BigInt(p.bytes),
      streamHandle(options.stream),
    ),
    "cuMemcpyPeerAsync",
  );
}
