/**
 * The CUDA C and OpenCL C of `unique`'s and `searchsorted`'s kernels, over the keys of
 * `sort_source.ts` (so equality and order are NumPy's: the two zeros equal, NaNs equal and last):
 * - `cudeno_unique_count`: each block counts the first elements of runs of equal keys in its share
 *   of a sorted array (the same shares and offset table as the sort's upsweep, with one row);
 * - `cudeno_unique_write`: each block numbers those runs from its scanned offset, writing each run's
 *   first value and start, and each element's run number at its original index (the inverse);
 * - `cudeno_searchsorted`: a binary search per value.
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { scanScratch, sortHelpers, sortNames, type SortVariant } from "./sort_keys_source.ts";

/** The source of the unique and search kernels of `v`. */
export function searchSource(v: SortVariant, dialect: Dialect): string {
  const n = sortNames(v, dialect);
  const { bits, key, off, long, unroll } = n;
  const { local, group, groupSize } = n.target.threadIds;
  const head = n.target.kernelHead;
  // Whether sorted element g starts a run: the first, or a key other than its predecessor's.
  const starts = `(g == 0 || cudeno_key(v[g], kind, inf, 0) != cudeno_key(v[g - 1], kind, inf, 0))`;
  return `${sortHelpers(v, n)}
${head} cudeno_unique_count(${n.src(bits, "v")}, ${
    n.dst(off, "counts")
  }, ${long} n, int kind, ${key} inf, ${long} tilesPerBlock) {
  ${n.shared(off, "scanO", scanScratch(n))}
  const int t = ${local};
  const ${long} blk = ${group};
  const ${long} lo = blk * tilesPerBlock * CUDENO_TILE;
  const ${long} hi = lo + tilesPerBlock * CUDENO_TILE < n ? lo + tilesPerBlock * CUDENO_TILE : n;
  ${off} mine = 0, total;
  for (${long} g = lo + t; g < hi; g += CUDENO_BLOCK) mine += ${starts} ? 1 : 0;
  cudeno_scan_o(mine, &total, scanO);
  if (t == 0) counts[blk] = total;
}

${head} cudeno_unique_write(${n.src(bits, "v")}, ${n.src(long, "perm")}, ${n.src(off, "offsets")}, ${
    n.dst(bits, "values")
  }, ${n.dst(long, "runStarts")}, ${
    n.dst(long, "inverse")
  }, ${long} n, int kind, ${key} inf, ${long} tilesPerBlock, int outputs) {
  ${n.shared(off, "scanO", scanScratch(n))}
  const int t = ${local};
  const ${long} blk = ${group};
  const ${long} lo = blk * tilesPerBlock * CUDENO_TILE;
  const ${long} hi = lo + tilesPerBlock * CUDENO_TILE < n ? lo + tilesPerBlock * CUDENO_TILE : n;
  ${long} before = (${long})offsets[blk];
  for (${long} start = lo; start < hi; start += CUDENO_TILE) {
    int first[CUDENO_ITEMS];
    ${off} mine = 0, total;
${unroll}    for (int i = 0; i < CUDENO_ITEMS; i++) {
      const ${long} g = start + t * CUDENO_ITEMS + i;
      first[i] = g < hi && ${starts};
      mine += first[i];
    }
    const ${off} runs = cudeno_scan_o(mine, &total, scanO);
    ${long} run = before + (${long})runs - 1;
${unroll}    for (int i = 0; i < CUDENO_ITEMS; i++) {
      const ${long} g = start + t * CUDENO_ITEMS + i;
      if (g < hi) {
        if (first[i]) {
          run++;
          if (outputs & 1) values[run] = v[g];
          if (outputs & 2) runStarts[run] = g;
        }
        if (outputs & 4) inverse[perm[g]] = run;
        if ((outputs & 2) && g == n - 1) runStarts[run + 1] = n;
      }
    }
    before += (${long})total;
  }
}

${head} cudeno_searchsorted(${n.src(bits, "a")}, ${long} aOff, ${long} n, ${
    n.src(bits, "x")
  }, ${long} xOff, ${n.dst(long, "out")}, ${long} m, int kind, ${key} inf, int right) {
  const ${long} i = (${long})${group} * ${groupSize} + ${local};
  if (i >= m) return;
  a += aOff;
  const ${key} k = cudeno_key(x[xOff + i], kind, inf, 0);
  ${long} lo = 0, hi = n;
  while (lo < hi) {
    const ${long} mid = lo + ((hi - lo) >> 1);
    const ${key} km = cudeno_key(a[mid], kind, inf, 0);
    if (right ? km <= k : km < k) lo = mid + 1;
    else hi = mid;
  }
  out[i] = lo;
}
`;
}
