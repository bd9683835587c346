/**
 * NCCL errors, with NCCL's own text and, where it has one, its last detailed message.
 *
 * @module
 */

import { libnccl } from "../../../ffi/nccl.ts";

const NAMES: Record<number, string> = {
  1: "ncclUnhandledCudaError",
  2: "ncclSystemError",
  3: "ncclInternalError",
  4: "ncclInvalidArgument",
  5: "ncclInvalidUsage",
  6: "ncclRemoteError",
  7: "ncclInProgress",
};

function cText(p: Deno.PointerValue): string {
  return p === null ? "" : Deno.UnsafePointerView.getCString(p);
}

/**
 * An NCCL call failed.
 *
 * @example
 * ```ts
 * import * as nccl from "@cudeno/cudeno/nccl";
 * try {
 *   nccl.initAll([99]);
 * } catch (e) {
 *   if (e instanceof nccl.NcclError) console.log(e.codeName, e.message);
 * }
 * ```
 */
export class NcclError extends Error {
  /** The `ncclResult_t` value. */
  readonly code: number;
  /** Its name, `ncclInvalidArgument`. */
  readonly codeName: string;
  /** The NCCL function that returned it. */
  readonly call: string;

  /** Builds the error with NCCL's description of `code` and its last error message. */
  constructor(code: number, call: string, comm: Deno.PointerValue = null) {
    const lib = libnccl.get();
    const text = cText(lib.ncclGetErrorString(code));
    const last = cText(lib.ncclGetLastError(comm));
    super(
      `${call} failed: ${NAMES[code] ?? `ncclResult_t ${code}`} (${text})${last === "" ? "" : `: ${last}`}`,
    );
    this.name = "NcclError";
    this.code = code;
    this.codeName = NAMES[code] ?? `ncclResult_t ${code}`;
    this.call = call;
  }
}

/** Throws an {@link NcclError} unless `code` is `ncclSuccess`. */
export function checkNccl(code: number, call: string, comm: Deno.PointerValue = null): void {
  if (code !== 0) throw new NcclError(code, call, comm);
}
