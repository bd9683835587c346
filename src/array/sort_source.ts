/**
 * The CUDA C and OpenCL C of the radix sort (`radix.ts` runs it). Keys are the elements' bits mapped
 * to unsigned integers whose order is NumPy's (integers: the sign bit flipped; floats: all bits of
 * negatives flipped, the sign bit of positives set, both zeros to one key and every NaN past
 * +infinity), so one variant per element width serves every dtype of that width.
 *
 * A sort is LSD over 8-bit digits: per pass an upsweep counts each block's digits, a scan turns the
 * counts into offsets (one block per digit), and a downsweep ranks each tile of the block in shared
 * memory (two stable 4-bit counting passes) and writes it out in digit order, so each digit's run is
 * written contiguously. Each element carries its flat index, which gives argsort's result, the row of
 * a segmented sort (rows sort as the most significant digits) and, for floats, the original bits of a
 * zero or NaN (their keys are shared). Rows no longer than a tile are sorted whole in one block.
 *
 * @module
 */

import type { Dialect } from "../kernel/ctypes.ts";
import { barrier, kernelHead, threadIds } from "./codegen.ts";

/** Threads per block of every sort kernel; also the number of 8-bit digits (thread `t` owns digit `t`). */
export const SORT_BLOCK = 256;

/** What a sort's source depends on: the element width and whether indices need 64 bits. */
export interface SortVariant {
  /** Bytes per element (1, 2, 4 or 8). */
  readonly width: number;
  /** 64-bit flat indices and offsets (arrays of 2^32 elements or more); else 32-bit. */
  readonly wide: boolean;
}

/** Elements each thread holds in a tile: fewer for wider keys and indices, so a tile fits in 48 KiB. */
export function sortItems(v: SortVariant): number {
  return (v.width <= 4 ? 4 : 8) + (v.wide ? 8 : 4) <= 8 ? 16 : 8;
}

/** Elements of one tile (what one block ranks at a time). */
export function sortTile(v: SortVariant): number {
  return SORT_BLOCK * sortItems(v);
}

/** The C names and constants a variant's source is written with. */
interface Names {
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
  readonly cuda: boolean;
}

function unsigned(bytes: number, cuda: boolean): string {
  const name = { 1: "char", 2: "short", 4: "int", 8: cuda ? "long long" : "long" }[bytes]!;
  return cuda ? `unsigned ${name}` : `u${name}`;
}

function hex(bits: number, value: bigint, cuda: boolean): string {
  const text = `0x${value.toString(16)}`;
  return bits === 64 ? `${text}${cuda ? "ULL" : "UL"}` : `${text}u`;
}

/** The names `v`'s source uses in `dialect`. */
export function sortNames(v: SortVariant, dialect: Dialect): Names {
  const cuda = dialect === "cuda";
  const keyBits = v.width <= 4 ? 32 : 64;
  const valueBits = v.width * 8;
  return {
    bits: unsigned(v.width, cuda),
    key: unsigned(keyBits / 8, cuda),
    pay: unsigned(v.wide ? 8 : 4, cuda),
    off: unsigned(v.wide ? 8 : 4, cuda),
    long: cuda ? "long long" : "long",
    u16: unsigned(2, cuda),
    u32: unsigned(4, cuda),
    sign: hex(keyBits, 1n << BigInt(valueBits - 1), cuda),
    mask: hex(keyBits, (1n << BigInt(valueBits)) - 1n, cuda),
    fn: cuda ? "__device__ __forceinline__" : "inline",
    src: (type, name) => cuda ? `const ${type} *__restrict__ ${name}` : `__global const ${type} *${name}`,
    dst: (type, name) => cuda ? `${type} *__restrict__ ${name}` : `__global ${type} *${name}`,
    shared: (type, name, size) => `${cuda ? "__shared__" : "__local"} ${type} ${name}[${size}];`,
    local: (type) => cuda ? `${type} *` : `__local ${type} *`,
    unroll: cuda ? "#pragma unroll\n" : "",
    cuda,
  };
}

/** Scratch entries a block scan needs: one per warp on CUDA, one per thread on OpenCL. */
export function scanScratch(n: Names): number {
  return n.cuda ? SORT_BLOCK / 32 : SORT_BLOCK;
}

/** An exclusive block-wide scan of one `type` per thread, returning the block's total through `total`. */
function blockScan(n: Names, name: string, type: string): string {
  if (n.cuda) {
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
  return `inline ${type} ${name}(${type} v, ${type} *total, __local ${type} *tmp) {
  const int t = get_local_id(0);
  tmp[t] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int o = 1; o < ${SORT_BLOCK}; o <<= 1) {
    const ${type} y = t >= o ? tmp[t - o] : (${type})0;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[t] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *total = tmp[${SORT_BLOCK - 1}];
  const ${type} r = tmp[t] - v;
  barrier(CLK_LOCAL_MEM_FENCE);
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

/**
 * One stable counting pass over a tile in shared memory by the 4-bit digit at `shift`: each thread
 * takes its run of `CUDENO_ITEMS` elements, counts them per digit in its own column of `cnt`, a block
 * scan over the counts (digit-major) gives every element its place, and the elements move there.
 * Elements at or past `valid` are padding and take digit 15, so they stay last.
 */
function localPass(n: Names, shift: string): string {
  const { key, pay, u16, u32, unroll } = n;
  const b = barrier(n.cuda ? "cuda" : "opencl");
  const t = n.cuda ? "threadIdx.x" : "get_local_id(0)";
  return `{
      const int t = ${t};
      ${key} keys[CUDENO_ITEMS];
      ${pay} pays[CUDENO_ITEMS];
      ${u32} rk[CUDENO_ITEMS];
${unroll}      for (int i = 0; i < CUDENO_ITEMS; i++) {
        keys[i] = sk[CUDENO_PAD(t * CUDENO_ITEMS + i)];
        pays[i] = sp[CUDENO_PAD(t * CUDENO_ITEMS + i)];
      }
      for (int d = 0; d < 16; d++) cnt[d * CUDENO_BLOCK + t] = 0;
${unroll}      for (int i = 0; i < CUDENO_ITEMS; i++) {
        const ${u32} d = t * CUDENO_ITEMS + i < valid
          ? cudeno_digit(keys[i], pays[i], fromRow, rowLen, rowBase, ${shift}, 15u) : 15u;
        const ${u32} c = cnt[d * CUDENO_BLOCK + t];
        cnt[d * CUDENO_BLOCK + t] = (${u16})(c + 1u);
        rk[i] = c | (d << 16);
      }
      ${b}
      ${u32} sum = 0, total;
      for (int j = 0; j < 16; j++) sum += cnt[t * 16 + j];
      ${u32} run = cudeno_scan_u(sum, &total, scanU);
      for (int j = 0; j < 16; j++) {
        const ${u32} c = cnt[t * 16 + j];
        cnt[t * 16 + j] = (${u16})run;
        run += c;
      }
      ${b}
${unroll}      for (int i = 0; i < CUDENO_ITEMS; i++) {
        const ${u32} r = (rk[i] & 0xffffu) + cnt[(rk[i] >> 16) * CUDENO_BLOCK + t];
        sk[CUDENO_PAD(r)] = keys[i];
        sp[CUDENO_PAD(r)] = pays[i];
      }
      ${b}
    }`;
}

/** The shared memory of a block that ranks tiles: keys, indices, the digit counters, the scan scratch. */
function tileShared(n: Names): string {
  const padded = "CUDENO_PAD(CUDENO_TILE)";
  return `${n.shared(n.key, "sk", padded)}
  ${n.shared(n.pay, "sp", padded)}
  ${n.shared(n.u32, "scratch", 8 * SORT_BLOCK)}
  ${n.shared(n.u32, "scanU", scanScratch(n))}
  ${n.local(n.u16)}cnt = (${n.local(n.u16)})scratch;`;
}

/**
 * Loads elements `[start, start + valid)` of the tile into shared memory, striped (coalesced): keys
 * made from the input's elements (`first` true, or a C condition) or the keys and indices of a pass.
 */
function loadTile(n: Names, first: true | string): string {
  const fromInput = `sk[CUDENO_PAD(p)] = cudeno_key(x[g], kind, inf, desc);
        sp[CUDENO_PAD(p)] = (${n.pay})g;`;
  const fromPass = `sk[CUDENO_PAD(p)] = keysIn[g];
        sp[CUDENO_PAD(p)] = paysIn[g];`;
  return `for (int j = 0; j < CUDENO_ITEMS; j++) {
      const int p = j * CUDENO_BLOCK + t;
      if (p < valid) {
        const ${n.long} g = start + p;
        ${first === true ? fromInput : `if (${first}) {\n${fromInput}\n} else {\n${fromPass}\n}`}
      }
    }
    ${barrier(n.cuda ? "cuda" : "opencl")}`;
}

/** Writes the output of the element at sorted position `p` to flat position `dst`. */
function writeOutput(n: Names): string {
  return `if (outputs & 1) valuesOut[dst] = cudeno_bits(k, kind, desc, x, q);
          if (outputs & 2) indicesOut[dst] = (${n.long})(q - (q / rowLen) * rowLen);`;
}

/**
 * Every sort kernel of a variant:
 * - `cudeno_sort_count`: the upsweep (each block's 8-bit digit counts, digit-major in `counts`);
 * - `cudeno_sort_scan`: one block per digit turns its row of counts into exclusive offsets and writes
 *   the digit's total;
 * - `cudeno_sort_scatter`: the downsweep (ranks each tile by the digit, writes it out in order);
 * - `cudeno_sort_block`: sorts tiles holding whole rows, by every digit of the key then of the row.
 *
 * Pass `stage` bit 0 reads the input's elements (and makes the flat indices), bit 1 writes the
 * outputs (`outputs` bit 0: values, bit 1: indices within the row) instead of keys and indices.
 */
export function sortSource(v: SortVariant, dialect: Dialect): string {
  const n = sortNames(v, dialect);
  const { bits, key, pay, off, long, u32, unroll } = n;
  const { local, group } = threadIds(dialect);
  const b = barrier(dialect);
  const head = kernelHead(dialect);
  const xParams = `${n.src(bits, "x")}, ${long} xOff`;
  const order = `int kind, ${key} inf, ${key} desc`;
  const outParams = `${n.dst(bits, "valuesOut")}, ${n.dst(long, "indicesOut")}`;
  return `${sortHelpers(v, n)}
${head} cudeno_sort_count(${xParams}, ${n.src(key, "keysIn")}, ${n.src(pay, "paysIn")}, ${
    n.dst(off, "counts")
  }, ${long} n, ${pay} rowLen, int shift, int fromRow, int first, ${order}, ${long} tilesPerBlock, ${long} blocks) {
  ${n.shared(u32, "hist", SORT_BLOCK)}
  const int t = ${local};
  const ${long} blk = ${group};
  x += xOff;
  hist[t] = 0;
  ${b}
  const ${long} lo = blk * tilesPerBlock * CUDENO_TILE;
  const ${long} hi = lo + tilesPerBlock * CUDENO_TILE < n ? lo + tilesPerBlock * CUDENO_TILE : n;
  for (${long} start = lo; start < hi; start += CUDENO_TILE) {
    ${key} k[CUDENO_ITEMS];
    ${pay} q[CUDENO_ITEMS];
${unroll}    for (int j = 0; j < CUDENO_ITEMS; j++) {
      const ${long} g = start + j * CUDENO_BLOCK + t;
      k[j] = 0;
      q[j] = (${pay})g;
      if (g < hi) {
        if (first) k[j] = cudeno_key(x[g], kind, inf, desc);
        else if (fromRow) q[j] = paysIn[g];
        else k[j] = keysIn[g];
      }
    }
${unroll}    for (int j = 0; j < CUDENO_ITEMS; j++) {
      if (start + j * CUDENO_BLOCK + t < hi) {
        ${
    n.cuda ? "atomicAdd(&hist" : "atomic_inc(&hist"
  }[cudeno_digit(k[j], q[j], fromRow, rowLen, 0, shift, 255u)]${n.cuda ? ", 1u)" : ")"};
      }
    }
  }
  ${b}
  counts[t * blocks + blk] = hist[t];
}

${head} cudeno_sort_scan(${n.dst(off, "counts")}, ${n.dst(off, "totals")}, ${long} blocks) {
  ${n.shared(off, "scanO", scanScratch(n))}
  const int t = ${local};
  const ${long} row = ${group};
  counts += row * blocks;
  ${off} carry = 0;
  for (${long} s = 0; s < blocks; s += 4 * CUDENO_BLOCK) {
    ${off} c[4], sum = 0, total;
    for (int j = 0; j < 4; j++) {
      const ${long} i = s + 4 * t + j;
      c[j] = i < blocks ? counts[i] : 0;
      sum += c[j];
    }
    ${off} run = cudeno_scan_o(sum, &total, scanO) + carry;
    for (int j = 0; j < 4; j++) {
      const ${long} i = s + 4 * t + j;
      if (i < blocks) counts[i] = run;
      run += c[j];
    }
    carry += total;
  }
  if (t == 0) totals[row] = carry;
}

${head} cudeno_sort_scatter(${xParams}, ${n.src(key, "keysIn")}, ${n.src(pay, "paysIn")}, ${
    n.dst(key, "keysOut")
  }, ${n.dst(pay, "paysOut")}, ${outParams}, ${n.src(off, "offsets")}, ${
    n.src(off, "totals")
  }, ${long} n, ${pay} rowLen, int shift, int fromRow, int stage, int outputs, ${order}, ${long} tilesPerBlock, ${long} blocks) {
  ${tileShared(n)}
  ${n.shared(off, "base", SORT_BLOCK)}
  ${n.shared(off, "scanO", scanScratch(n))}
  ${n.local(u32)}tileFirst = scratch;
  ${n.local(u32)}tileEnd = scratch + ${SORT_BLOCK};
  const int t = ${local};
  const ${long} blk = ${group};
  const ${pay} rowBase = 0;
  x += xOff;
  {
    ${off} total;
    const ${off} before = cudeno_scan_o(totals[t], &total, scanO);
    base[t] = before + offsets[t * blocks + blk];
  }
  for (${long} tile = blk * tilesPerBlock; tile < (blk + 1) * tilesPerBlock; tile++) {
    const ${long} start = tile * CUDENO_TILE;
    if (start >= n) break;
    const int valid = n - start < CUDENO_TILE ? (int)(n - start) : CUDENO_TILE;
    ${loadTile(n, "stage & 1")}
    for (int sub = 0; sub < 8; sub += 4) {
      const int shift4 = shift + sub;
      ${localPass(n, "shift4")}
    }
    tileFirst[t] = 0;
    tileEnd[t] = 0;
    ${b}
    for (int j = 0; j < CUDENO_ITEMS; j++) {
      const int p = j * CUDENO_BLOCK + t;
      if (p < valid) {
        const ${u32} d = cudeno_digit(sk[CUDENO_PAD(p)], sp[CUDENO_PAD(p)], fromRow, rowLen, 0, shift, 255u);
        if (p == 0 || cudeno_digit(sk[CUDENO_PAD(p - 1)], sp[CUDENO_PAD(p - 1)], fromRow, rowLen, 0, shift, 255u) != d) {
          tileFirst[d] = p;
        }
        if (p == valid - 1 || cudeno_digit(sk[CUDENO_PAD(p + 1)], sp[CUDENO_PAD(p + 1)], fromRow, rowLen, 0, shift, 255u) != d) {
          tileEnd[d] = p + 1;
        }
      }
    }
    ${b}
    for (int j = 0; j < CUDENO_ITEMS; j++) {
      const int p = j * CUDENO_BLOCK + t;
      if (p < valid) {
        const ${key} k = sk[CUDENO_PAD(p)];
        const ${pay} q = sp[CUDENO_PAD(p)];
        const ${u32} d = cudeno_digit(k, q, fromRow, rowLen, 0, shift, 255u);
        const ${long} dst = (${long})base[d] + (p - (int)tileFirst[d]);
        if (stage & 2) {
          ${writeOutput(n)}
        } else {
          keysOut[dst] = k;
          paysOut[dst] = q;
        }
      }
    }
    ${b}
    base[t] += tileEnd[t] - tileFirst[t];
    ${b}
  }
}

${head} cudeno_sort_block(${xParams}, ${outParams}, ${long} n, ${pay} rowLen, ${pay} rowsPerTile, int keyDigits, int rowDigits, int outputs, ${order}) {
  ${tileShared(n)}
  const int t = ${local};
  const ${pay} rowBase = (${pay})${group} * rowsPerTile;
  const ${long} start = (${long})rowBase * rowLen;
  const int valid = n - start < (${long})rowsPerTile * rowLen ? (int)(n - start) : (int)(rowsPerTile * rowLen);
  x += xOff;
  ${loadTile(n, true)}
  for (int s = 0; s < keyDigits + rowDigits; s++) {
    const int fromRow = s >= keyDigits;
    const int shift = 4 * (fromRow ? s - keyDigits : s);
    ${localPass(n, "shift")}
  }
  for (int j = 0; j < CUDENO_ITEMS; j++) {
    const int p = j * CUDENO_BLOCK + t;
    if (p < valid) {
      const ${key} k = sk[CUDENO_PAD(p)];
      const ${pay} q = sp[CUDENO_PAD(p)];
      const ${long} dst = start + p;
      ${writeOutput(n)}
    }
  }
}
`;
}
