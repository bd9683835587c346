/**
 * The CUDA C and OpenCL C of the radix sort (`radix.ts` runs it). Keys are the elements' bits mapped
 * to unsigned integers whose order is NumPy's (integers: the sign bit flipped; floats: all bits of
 * negatives flipped, the sign bit of positives set, both zeros to one key and every NaN past
 * +infinity), so one variant per element width serves every dtype of that width.
 *
 * A sort is LSD over 8-bit digits: per pass an upsweep counts each block's digits, a scan turns the
 * counts into offsets (one block per digit), and a downsweep ranks each tile of the block in shared
 * memory (`sort_tile_source.ts`) and writes it out in digit order, so each digit's run is written
 * contiguously. On CUDA one kernel counts every pass's digits up front and each pass is then a single
 * kernel whose blocks find their offsets by a decoupled look-back (Onesweep, `onesweep_source.ts`).
 * Each element carries its flat index, which gives argsort's result, the row of a segmented sort (rows
 * sort as the most significant digits) and, for floats, the original bits of a zero or NaN (their keys
 * are shared). Rows no longer than a tile are sorted whole in one block.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import {
  type Names,
  scanScratch,
  SORT_BLOCK,
  sortHelpers,
  sortNames,
  type SortVariant,
} from "./sort_keys_source.ts";
import { counters, loadTile, localPass, nibbleRank, tileBounds, tileShared } from "./sort_tile_source.ts";
import { onesweepSource } from "./onesweep_source.ts";

/** Writes the output of the element at sorted position `p` to flat position `dst`. */
function writeOutput(n: Names): string {
  return `if (outputs & 1) valuesOut[dst] = cudeno_bits(k, kind, desc, x, q);
          if (outputs & 2) indicesOut[dst] = (${n.long})(q - (q / rowLen) * rowLen);`;
}

/** Writes a ranked tile out in digit order: digit `d`'s run from `base[d]` on. */
function writeTile(n: Names): string {
  const { key, pay, long, u32 } = n;
  return `for (int j = 0; j < CUDENO_ITEMS; j++) {
      const int p = j * CUDENO_BLOCK + t;
      if (p < valid) {
        const ${key} k = sk[CUDENO_PAD(p)];
        const ${pay} q = sp[CUDENO_PAD(p)];
        const ${u32} d = cudeno_tile_digit(sk, sp, p, fromRow, rowLen, shift);
        const ${long} dst = (${long})base[d] + (p - (int)tileFirst[d]);
        if (stage & 2) {
          ${writeOutput(n)}
        } else {
          keysOut[dst] = k;
          paysOut[dst] = q;
        }
      }
    }`;
}

/**
 * OpenCL's passes, which cannot wait on other work-groups: `cudeno_sort_count`, the upsweep (each
 * block's 8-bit digit counts, digit-major in `counts`), and `cudeno_sort_scatter`, the downsweep
 * (ranks each tile by the digit, writes it out in order), with `cudeno_sort_scan` between them.
 */
function passesSource(n: Names): string {
  const { bits, key, pay, off, long, u32 } = n;
  const { local, group } = n.target.threadIds;
  const b = n.target.barrier;
  const head = n.target.kernelHead;
  const xParams = `${n.src(bits, "x")}, ${long} xOff`;
  const order = `int kind, ${key} inf, ${key} desc`;
  const outParams = `${n.dst(bits, "valuesOut")}, ${long} valuesOff, ${
    n.dst(long, "indicesOut")
  }, ${long} indicesOff`;
  return `${head} cudeno_sort_count(${xParams}, ${n.src(key, "keysIn")}, ${n.src(pay, "paysIn")}, ${
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
    for (int j = 0; j < CUDENO_ITEMS; j++) {
      const ${long} g = start + j * CUDENO_BLOCK + t;
      k[j] = 0;
      q[j] = (${pay})g;
      if (g < hi) {
        if (first) k[j] = cudeno_key(x[g], kind, inf, desc);
        else if (fromRow) q[j] = paysIn[g];
        else k[j] = keysIn[g];
      }
    }
    for (int j = 0; j < CUDENO_ITEMS; j++) {
      if (start + j * CUDENO_BLOCK + t < hi) {
        atomic_inc(&hist[cudeno_digit(k[j], q[j], fromRow, rowLen, 0, shift, 255u)]);
      }
    }
  }
  ${b}
  counts[t * blocks + blk] = hist[t];
}

${head} cudeno_sort_scatter(${xParams}, ${n.src(key, "keysIn")}, ${n.src(pay, "paysIn")}, ${
    n.dst(key, "keysOut")
  }, ${n.dst(pay, "paysOut")}, ${outParams}, ${n.src(off, "offsets")}, ${
    n.src(off, "totals")
  }, ${long} n, ${pay} rowLen, int shift, int fromRow, int stage, int outputs, ${order}, ${long} tilesPerBlock, ${long} blocks) {
  ${tileShared(n)}
  ${n.shared(off, "base", SORT_BLOCK)}
  ${n.shared(off, "scanO", scanScratch(n))}
  ${tileBounds(n)}
  const int t = ${local};
  const ${long} blk = ${group};
  x += xOff;
  valuesOut += valuesOff;
  indicesOut += indicesOff;
  {
    ${off} total;
    const ${off} before = cudeno_scan_o(totals[t], &total, scanO);
    base[t] = before + offsets[t * blocks + blk];
  }
  for (${long} tile = blk * tilesPerBlock; tile < (blk + 1) * tilesPerBlock; tile++) {
    const ${long} start = tile * CUDENO_TILE;
    if (start >= n) break;
    const int valid = n - start < CUDENO_TILE ? (int)(n - start) : CUDENO_TILE;
    ${nibbleRank(n)}
    ${writeTile(n)}
    ${b}
    base[t] += tileEnd[t] - tileFirst[t];
    ${b}
  }
}
`;
}

/**
 * Every sort kernel of a variant:
 * - `cudeno_sort_count`: the upsweep (each block's 8-bit digit counts, digit-major in `counts`);
 * - `cudeno_sort_scan`: one block per digit turns its row of counts into exclusive offsets and writes
 *   the digit's total;
 * - `cudeno_sort_scatter`: the downsweep (ranks each tile by the digit, writes it out in order);
 * - `cudeno_sort_block`: sorts tiles holding whole rows, by every digit of the key then of the row;
 * - on CUDA, `cudeno_sort_histogram`, `cudeno_sort_offsets` and `cudeno_sort_onesweep`, which take
 *   the place of the first three ({@link onesweepSource}).
 *
 * Pass `stage` bit 0 reads the input's elements (and makes the flat indices), bit 1 writes the
 * outputs (`outputs` bit 0: values, bit 1: indices within the row) instead of keys and indices.
 */
export function sortSource(v: SortVariant, dialect: Dialect): string {
  const n = sortNames(v, dialect);
  const { bits, key, pay, off, long, u32 } = n;
  const { local, group } = n.target.threadIds;
  const head = n.target.kernelHead;
  // Three blocks an SM on CUDA (80 registers, no spills): the tile kernels' shared memory allows four.
  const bounds = n.target.launchBounds(SORT_BLOCK, 3);
  const tiled = bounds === "" ? head : `${head} ${bounds}`;
  const xParams = `${n.src(bits, "x")}, ${long} xOff`;
  const order = `int kind, ${key} inf, ${key} desc`;
  const outParams = `${n.dst(bits, "valuesOut")}, ${long} valuesOff, ${
    n.dst(long, "indicesOut")
  }, ${long} indicesOff`;
  return `${sortHelpers(v, n)}
${n.fn} ${u32} cudeno_tile_digit(${n.local(key)}sk, ${
    n.local(pay)
  }sp, int p, int fromRow, ${pay} rowLen, int shift) {
  return fromRow ? ((${u32})((sp[CUDENO_PAD(p)] / rowLen) >> shift) & 255u) : ((${u32})(sk[CUDENO_PAD(p)] >> shift) & 255u);
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

${n.target.decoupledLookback ? onesweepSource(v, n) : passesSource(n)}
${tiled} cudeno_sort_block(${xParams}, ${outParams}, ${long} n, ${pay} rowLen, ${pay} rowsPerTile, int keyDigits, int rowDigits, int outputs, ${order}) {
  ${tileShared(n)}
  ${counters(n)}
  const int t = ${local};
  const ${pay} rowBase = (${pay})${group} * rowsPerTile;
  const ${long} start = (${long})rowBase * rowLen;
  const int valid = n - start < (${long})rowsPerTile * rowLen ? (int)(n - start) : (int)(rowsPerTile * rowLen);
  x += xOff;
  valuesOut += valuesOff;
  indicesOut += indicesOff;
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
