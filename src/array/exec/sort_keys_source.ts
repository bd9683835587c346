/**
 * What every sort, unique and search kernel shares: the variant (element width, index width), the C
 * names and constants of its source in each dialect, the key of an element's bits in NumPy's order
 * and back, digits, and block-wide scans.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import type { Target } from "../../codegen/target.ts";
import { targetOf } from "../../codegen/targets.ts";

/** Threads per block of every sort kernel; also the number of 8-bit digits (thread `t` owns digit `t`). */
export const SORT_BLOCK = 256;

/** What a sort's source depends on: the element width and whether indices need 64 bits. */
export interface SortVariant {
  /** Bytes per element (1, 2, 4 or 8). */
  readonly width: number;
  /** 64-bit flat indices and offsets (arrays of 2^32 elements or more); else 32-bit. */
  readonly wide: boolean;
}

/**
 * Elements each thread holds in a tile of the block sort and of OpenCL's downsweep (keys and indices in
 * shared memory, 48 KiB at most): 16, or 8 for wider keys or indices. CUDA's Onesweep passes size their
 * own tiles (`onesweep_source.ts`).
 */
export function sortItems(v: SortVariant): number {
  return (v.width <= 4 ? 4 : 8) + (v.wide ? 8 : 4) <= 8 ? 16 : 8;
}

/** Elements of one tile (what one block ranks at a time). */
export function sortTile(v: SortVariant): number {
  return SORT_BLOCK * sortItems(v);
}

/** The C names and constants a variant's source is written with. */
export interface Names {
  /** The element's bits, key, flat index, offset table and 64-bit index types. */
  readonly bits: string;
  readonly key: string;
  readonly pay: string;
  readonly off: string;
  readonly long: string;
  readonly u16: string;
  readonly u32: string;
  /** The key's sign bit and its all-ones mask, as literals. */
  readonly sign: string;
  readonly mask: string;
  /** A device function's qualifiers. */
  readonly fn: string;
  /** A global pointer parameter, read-only or written. */
  readonly src: (type: string, name: string) => string;
  readonly dst: (type: string, name: string) => string;
  /** A shared array declaration. */
  readonly shared: (type: string, name: string, size: number | string) => string;
  /** A pointer into shared memory, as a helper's parameter type. */
  readonly local: (type: string) => string;
  readonly unroll: string;
  /** The dialect's target. */
  readonly target: Target;
}

/** The unsigned integer type of `bytes` bytes. */
function unsigned(bytes: number, t: Target): string {
  return t.cType(({ 1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64" } as const)[bytes]!);
}

/** The names `v`'s source uses in `dialect`. */
export function sortNames(v: SortVariant, dialect: Dialect): Names {
  const t = targetOf(dialect);
  const keyBits = v.width <= 4 ? 32 : 64;
  const valueBits = v.width * 8;
  return {
    bits: unsigned(v.width, t),
    key: unsigned(keyBits / 8, t),
    pay: unsigned(v.wide ? 8 : 4, t),
    off: unsigned(v.wide ? 8 : 4, t),
    long: t.indexType,
    u16: unsigned(2, t),
    u32: unsigned(4, t),
    sign: t.unsignedHex(1n << BigInt(valueBits - 1), keyBits),
    mask: t.unsignedHex((1n << BigInt(valueBits)) - 1n, keyBits),
    fn: t.inline,
    src: (type, name) => t.globalPointer(type, name, true, true),
    dst: (type, name) => t.globalPointer(type, name, false, true),
    shared: (type, name, size) => `${t.sharedQualifier} ${type} ${name}[${size}];`,
    local: (type) => `${t.sharedSpace}${type} *`,
    unroll: t.unroll(),
    target: t,
  };
}

/** Scratch entries a block scan needs: one per warp where warps shuffle, else one per thread. */
export function scanScratch(n: Names): number {
  return n.target.warpShuffle ? SORT_BLOCK / 32 : SORT_BLOCK;
}

/** An exclusive block-wide scan of one `type` per thread, returning the block's total through `total`. */
function blockScan(n: Names, name: string, type: string): string {
  if (n.target.warpShuffle) {
    const warps = SORT_BLOCK / 32;
    return `${n.fn} ${type} ${name}(${type} v, ${type} *total, ${type} *tmp) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  ${type} x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const ${type} y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) tmp[warp] = x;
  __syncthreads();
  if (warp == 0) {
    ${type} s = lane < ${warps} ? tmp[lane] : (${type})0;
#pragma unroll
    for (int o = 1; o < ${warps}; o <<= 1) {
      const ${type} y = __shfl_up_sync(0xffffffffu, s, o);
      if (lane >= o) s += y;
    }
    if (lane < ${warps}) tmp[lane] = s;
  }
  __syncthreads();
  *total = tmp[${warps - 1}];
  const ${type} before = warp == 0 ? (${type})0 : tmp[warp - 1];
  __syncthreads();
  return before + x - v;
}`;
  }
  const bar = n.target.barrier;
  return `${n.fn} ${type} ${name}(${type} v, ${type} *total, ${n.local(type)}tmp) {
  const int t = ${n.target.threadIds.local};
  tmp[t] = v;
  ${bar}
  for (int o = 1; o < ${SORT_BLOCK}; o <<= 1) {
    const ${type} y = t >= o ? tmp[t - o] : (${type})0;
    ${bar}
    tmp[t] += y;
    ${bar}
  }
  *total = tmp[${SORT_BLOCK - 1}];
  const ${type} r = tmp[t] - v;
  ${bar}
  return r;
}`;
}

/**
 * The helpers every sort, unique and search kernel of a variant shares: the key of an element's bits
 * (`kind` 0: unsigned or bool, 1: signed, 2: float with `inf` the bits of +infinity; `desc` all ones
 * for a descending order), the bits back from a key (a zero's or NaN's from the input, at its flat
 * index), a digit of the key or of the row, and the block scans.
 */
export function sortHelpers(v: SortVariant, n: Names): string {
  const { bits, key, pay, off, u32, sign, mask, fn } = n;
  return `#define CUDENO_BLOCK ${SORT_BLOCK}
#define CUDENO_ITEMS ${sortItems(v)}
#define CUDENO_TILE ${sortTile(v)}
#define CUDENO_PAD(p) ((p) + ((p) >> 5))
${fn} ${key} cudeno_key(${bits} b, int kind, ${key} inf, ${key} desc) {
  ${key} k = (${key})b;
  if (kind == 1) {
    k ^= ${sign};
  } else if (kind == 2) {
    if ((k & (${mask} ^ ${sign})) > inf) k = ${mask};
    else if (k & ${sign}) k = k == ${sign} ? ${sign} : (~k & ${mask});
    else k |= ${sign};
  }
  return k ^ desc;
}
${fn} ${bits} cudeno_bits(${key} k, int kind, ${key} desc, ${n.src(bits, "x")}, ${pay} q) {
  k ^= desc;
  if (kind == 1) return (${bits})(k ^ ${sign});
  if (kind == 2) {
    if (k == ${sign} || k == ${mask}) return x[q];
    return (${bits})((k & ${sign}) ? (k ^ ${sign}) : (~k & ${mask}));
  }
  return (${bits})k;
}
${fn} ${u32} cudeno_digit(${key} k, ${pay} q, int fromRow, ${pay} rowLen, ${pay} rowBase, int shift, ${u32} m) {
  return fromRow ? ((${u32})((q / rowLen - rowBase) >> shift) & m) : ((${u32})(k >> shift) & m);
}
${blockScan(n, "cudeno_scan_u", u32)}
${blockScan(n, "cudeno_scan_o", off)}`;
}
