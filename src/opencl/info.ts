/**
 * Reading OpenCL `clGet*Info` values: strings, integers and arrays, for platforms, devices, kernels
 * and events alike.
 *
 * @module
 */

import { checkCL } from "./errors.ts";

/** The shape every `clGet*Info` function shares. */
export type InfoQuery = (
  handle: Deno.PointerValue,
  param: number,
  size: bigint,
  value: Uint8Array | null,
  sizeRet: BigUint64Array | null,
) => number;

/** The raw bytes of one info value. */
export function infoBytes(
  query: InfoQuery,
  handle: Deno.PointerValue,
  param: number,
  call: string,
): Uint8Array {
  const size = new BigUint64Array(1);
  checkCL(query(handle, param, 0n, null, size), call);
  const value = new Uint8Array(Number(size[0]!));
  if (value.length > 0) checkCL(query(handle, param, size[0]!, value, null), call);
  return value;
}

/** A NUL-terminated string value. */
export function infoString(query: InfoQuery, handle: Deno.PointerValue, param: number, call: string): string {
  const bytes = infoBytes(query, handle, param, call);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end)).trim();
}

/** A `cl_uint` value. */
export function infoU32(query: InfoQuery, handle: Deno.PointerValue, param: number, call: string): number {
  const out = new Uint8Array(4);
  checkCL(query(handle, param, 4n, out, null), call);
  return new DataView(out.buffer).getUint32(0, true);
}

/** A `cl_ulong` or `size_t` value. */
export function infoU64(query: InfoQuery, handle: Deno.PointerValue, param: number, call: string): bigint {
  const out = new Uint8Array(8);
  checkCL(query(handle, param, 8n, out, null), call);
  return new DataView(out.buffer).getBigUint64(0, true);
}

/** A `size_t[]` value. */
export function infoU64Array(
  query: InfoQuery,
  handle: Deno.PointerValue,
  param: number,
  call: string,
): bigint[] {
  const bytes = infoBytes(query, handle, param, call);
  return [...new BigUint64Array(bytes.buffer, 0, bytes.length / 8)];
}
