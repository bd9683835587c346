/**
 * CUDA's radix sort passes (Adinets and Merrill's Onesweep; `sort_source.ts` assembles them with the
 * shared helpers, `radix.ts` runs them). `cudeno_sort_histogram` counts every pass's digits of the
 * whole array at once, `cudeno_sort_offsets` turns each pass's counts into the digits' exclusive
 * offsets, and each pass is then one kernel in which a block takes the next tile number from a
 * counter, ranks its tile, publishes each digit's count in the tile, and finds where each digit's run
 * goes by a decoupled look-back over its predecessors' counts.
 *
 * @module
 */

import { type Names, scanScratch, SORT_BLOCK, type SortVariant } from "./sort_keys_source.ts";

/** The most digit passes of a variant's sort (the histogram's size): one per byte of the key, then of the row number. */
function maxPasses(v: SortVariant): number {
  return v.width + (v.wide ? 8 : 4);
}

/**
 * Elements each thread ranks in a pass: only the ranked words and their places stay in registers (64,
 * four blocks an SM), and the tile's ranked and carried words fit 48 KiB of shared memory. 2^26
 * float32 with indices on the H200: 20.5 Gkeys/s at 16 items and three blocks an SM, 21.2 at 20 and
 * three, 22.7 at 16 and four, 23.3 at 20 and four.
 */
export function onesweepItems(v: SortVariant): number {
  const bytes = (v.width <= 4 ? 4 : 8) + (v.wide ? 8 : 4);
  return bytes <= 8 ? 20 : bytes <= 12 ? 12 : 10;
}

/** Elements of one Onesweep tile (what one block ranks). */
export function onesweepTile(v: SortVariant): number {
  return SORT_BLOCK * onesweepItems(v);
}

/**
 * The histogram of every pass's digits (into `totals`, zeroed before; it also zeroes the first
 * look-back state) and the kernel that turns each pass's counts into exclusive offsets.
 */
function histogramSource(v: SortVariant, n: Names): string {
  const { key, pay, off, long, u32 } = n;
  const order = `int kind, ${key} inf, ${key} desc`;
  const H = 8; // elements a thread loads before counting them: loads in flight
  return `${n.target.kernelHead} cudeno_sort_histogram(${n.src(n.bits, "x")}, ${long} xOff, ${
    n.dst(off, "totals")
  }, unsigned long long *state, ${long} words, ${long} n, ${pay} rowLen, int keyPasses, int passes, ${order}) {
  __shared__ ${u32} hist[${maxPasses(v) * SORT_BLOCK}];
  const int t = threadIdx.x;
  x += xOff;
  for (${long} i = (${long})blockIdx.x * ${SORT_BLOCK} + t; i < words; i += (${long})gridDim.x * ${SORT_BLOCK}) state[i] = 0ULL;
  for (int i = t; i < passes * ${SORT_BLOCK}; i += ${SORT_BLOCK}) hist[i] = 0;
  __syncthreads();
  for (${long} g0 = (${long})blockIdx.x * ${H * SORT_BLOCK}; g0 < n; g0 += (${long})gridDim.x * ${
    H * SORT_BLOCK
  }) {
    ${key} k[${H}];
#pragma unroll
    for (int j = 0; j < ${H}; j++) {
      const ${long} g = g0 + j * ${SORT_BLOCK} + t;
      if (g < n) k[j] = cudeno_key(x[g], kind, inf, desc);
    }
#pragma unroll
    for (int j = 0; j < ${H}; j++) {
      const ${long} g = g0 + j * ${SORT_BLOCK} + t;
      if (g < n) {
        for (int p = 0; p < passes; p++) {
          const int fromRow = p >= keyPasses;
          const ${u32} d = cudeno_digit(k[j], (${pay})g, fromRow, rowLen, 0, 8 * (fromRow ? p - keyPasses : p), 255u);
          atomicAdd(&hist[p * ${SORT_BLOCK} + d], 1u);
        }
      }
    }
  }
  __syncthreads();
  for (int i = t; i < passes * ${SORT_BLOCK}; i += ${SORT_BLOCK}) {
    if (hist[i] != 0u) atomicAdd(&totals[i], (${off})hist[i]);
  }
}

${n.target.kernelHead} cudeno_sort_offsets(${n.dst(off, "totals")}, int passes) {
  ${n.shared(off, "scanO", scanScratch(n))}
  const int t = threadIdx.x;
  for (int p = 0; p < passes; p++) {
    ${off} total;
    totals[p * ${SORT_BLOCK} + t] = cudeno_scan_o(totals[p * ${SORT_BLOCK} + t], &total, scanO);
  }
}`;
}

/**
 * One pass by the digits of the key (`cudeno_sort_onesweep`) or of the row number
 * (`cudeno_sort_onesweep_rows`, segmented sorts). The word the digit comes from is "ranked", the other
 * "carried". Each warp ranks its run of the tile 32 elements at a time: lanes holding the same digit
 * find each other with eight ballots, and one of them adds their number to the warp's histogram
 * (Adinets and Merrill's warp-level multi-split). Only the ranked words and their places stay in
 * registers; the carried words are loaded once the places are known and go straight to theirs. Each
 * digit's count in the tile is published before the tile is reordered in shared memory, and the
 * look-back (thread `t` owns digit `t`) runs after it, so a block waits on its predecessors as little
 * as it can. A status word holds a flag in its top two bits (0: nothing yet, 1: the tile's count, 2:
 * the inclusive prefix) and the count below. Passes alternate between two states (a counter, then 256
 * words a tile): the histogram zeroes the first, and each pass zeroes its tile's words of the state
 * the next pass uses, so nothing is left from an earlier launch and a captured graph replays it as it
 * runs. Pass `stage` bit 0 reads the input's elements (and makes the flat indices), bit 1 writes the
 * outputs (`outputs` bit 0: values, bit 1: indices within the row).
 */
function passSource(n: Names, rows: boolean): string {
  const { key, pay, off, long, u32 } = n;
  const ranked = rows ? pay : key, carried = rows ? key : pay;
  const digit = (w: string) =>
    rows ? `((${u32})((${w} / rowLen) >> shift) & 255u)` : `((${u32})(${w} >> shift) & 255u)`;
  const loadRanked = rows ? "paysIn[g]" : "(stage & 1) ? cudeno_key(x[g], kind, inf, desc) : keysIn[g]";
  const loadCarried = rows ? "keysIn[g]" : `(stage & 1) ? (${pay})g : paysIn[g]`;
  const [k, q] = rows ? ["c", "w"] : ["w", "c"];
  const warps = SORT_BLOCK / 32;
  return `${n.target.kernelHead} ${n.target.launchBounds(SORT_BLOCK, 4)} cudeno_sort_onesweep${
    rows ? "_rows" : ""
  }(${n.src(n.bits, "x")}, ${long} xOff, ${n.src(key, "keysIn")}, ${n.src(pay, "paysIn")}, ${
    n.dst(key, "keysOut")
  }, ${n.dst(pay, "paysOut")}, ${n.dst(n.bits, "valuesOut")}, ${long} valuesOff, ${
    n.dst(long, "indicesOut")
  }, ${long} indicesOff, ${
    n.src(off, "offsets")
  }, int pass, unsigned long long *state, unsigned long long *next, ${long} n, ${pay} rowLen, int shift, int stage, int outputs, int kind, ${key} inf, ${key} desc) {
  __shared__ ${ranked} rs[CUDENO_SWEEP_TILE];
  __shared__ ${carried} cs[CUDENO_SWEEP_TILE];
  __shared__ ${long} runs[${SORT_BLOCK}];
  __shared__ ${u32} tileFirst[${SORT_BLOCK}];
  ${n.shared(u32, "scanU", scanScratch(n))}
  __shared__ ${long} tileNumber;
  ${u32} *hist = (${u32} *)rs;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  x += xOff;
  valuesOut += valuesOff;
  indicesOut += indicesOff;
  for (int i = t; i < ${warps * SORT_BLOCK}; i += ${SORT_BLOCK}) hist[i] = 0u;
  // Tiles are numbered in the order blocks start, so every tile a block waits for has started.
  if (t == 0) tileNumber = (${long})atomicAdd(state, 1ULL);
  __syncthreads();
  const ${long} tile = tileNumber, start = tile * CUDENO_SWEEP_TILE;
  const int valid = n - start < CUDENO_SWEEP_TILE ? (int)(n - start) : CUDENO_SWEEP_TILE;
  const int mine = warp * (32 * CUDENO_SWEEP_ITEMS) + lane;
  next[1 + tile * ${SORT_BLOCK} + t] = 0ULL;
  if (tile == 0 && t == 0) next[0] = 0ULL;
  ${ranked} r[CUDENO_SWEEP_ITEMS];
  ${u32} place[CUDENO_SWEEP_ITEMS];
#pragma unroll
  for (int i = 0; i < CUDENO_SWEEP_ITEMS; i++) {
    const ${long} g = start + mine + 32 * i;
    r[i] = 0;
    if (mine + 32 * i < valid) r[i] = ${loadRanked};
  }
  {
    const ${u32} lower = (1u << lane) - 1u;
    ${u32} *wh = hist + warp * ${SORT_BLOCK};
#pragma unroll
    for (int i = 0; i < CUDENO_SWEEP_ITEMS; i++) {
      const int inTile = mine + 32 * i < valid;
      const ${u32} d = ${digit("r[i]")};
      // Padding (past valid) votes apart from every digit and is not counted.
      const ${u32} real = __ballot_sync(0xffffffffu, inTile);
      ${u32} peers = inTile ? real : ~real;
#pragma unroll
      for (int bit = 0; bit < 8; bit++) {
        const ${u32} vote = __ballot_sync(0xffffffffu, (d >> bit) & 1u);
        peers &= ((d >> bit) & 1u) ? vote : ~vote;
      }
      const int leader = 31 - __clz(peers);
      ${u32} before = 0u;
      if (lane == leader && inTile) before = atomicAdd(&wh[d], (${u32})__popc(peers));
      place[i] = __shfl_sync(0xffffffffu, before, leader) + __popc(peers & lower);
    }
  }
  __syncthreads();
  ${u32} count = 0u;
  for (int w = 0; w < ${warps}; w++) {
    const ${u32} c = hist[w * ${SORT_BLOCK} + t];
    hist[w * ${SORT_BLOCK} + t] = count;
    count += c;
  }
  volatile unsigned long long *status = (volatile unsigned long long *)(state + 1);
  status[tile * ${SORT_BLOCK} + t] = ((tile == 0 ? 2ULL : 1ULL) << 62) | count;
  ${u32} total;
  tileFirst[t] = cudeno_scan_u(count, &total, scanU);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < CUDENO_SWEEP_ITEMS; i++) {
    const ${u32} d = ${digit("r[i]")};
    place[i] += hist[warp * ${SORT_BLOCK} + d] + tileFirst[d];
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < CUDENO_SWEEP_ITEMS; i++) {
    if (mine + 32 * i < valid) rs[place[i]] = r[i];
  }
#pragma unroll
  for (int i = 0; i < CUDENO_SWEEP_ITEMS; i++) {
    const ${long} g = start + mine + 32 * i;
    if (mine + 32 * i < valid) cs[place[i]] = ${loadCarried};
  }
  {
    const unsigned long long value = (1ULL << 62) - 1ULL;
    unsigned long long before = 0;
    for (${long} k = tile - 1; k >= 0; k--) {
      unsigned long long w;
      do {
        w = status[k * ${SORT_BLOCK} + t];
      } while ((w >> 62) == 0ULL);
      before += w & value;
      if ((w >> 62) == 2ULL) break;
    }
    if (tile > 0) status[tile * ${SORT_BLOCK} + t] = (2ULL << 62) | (before + count);
    runs[t] = (${long})(offsets[pass * ${SORT_BLOCK} + t] + (${off})before) - (${long})tileFirst[t];
  }
  __syncthreads();
  for (int j = 0; j < CUDENO_SWEEP_ITEMS; j++) {
    const int p = j * ${SORT_BLOCK} + t;
    if (p < valid) {
      const ${ranked} w = rs[p];
      const ${carried} c = cs[p];
      const ${long} dst = runs[${digit("w")}] + p;
      if (stage & 2) {
        const ${key} k = ${k};
        const ${pay} q = ${q};
        if (outputs & 1) valuesOut[dst] = cudeno_bits(k, kind, desc, x, q);
        if (outputs & 2) indicesOut[dst] = (${long})(q - (q / rowLen) * rowLen);
      } else {
        ${
    rows ? "paysOut[dst] = w;\n        keysOut[dst] = c;" : "keysOut[dst] = w;\n        paysOut[dst] = c;"
  }
      }
    }
  }
}`;
}

/** Every CUDA Onesweep kernel of a variant (after `sortHelpers`). */
export function onesweepSource(v: SortVariant, n: Names): string {
  return `#define CUDENO_SWEEP_ITEMS ${onesweepItems(v)}
#define CUDENO_SWEEP_TILE ${onesweepTile(v)}
${histogramSource(v, n)}
${passSource(n, false)}
${passSource(n, true)}`;
}
