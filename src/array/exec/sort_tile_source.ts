/**
 * How a block ranks a tile of keys and indices in shared memory (`sort_source.ts` assembles the
 * kernels): stable 4-bit counting passes (CUDA's Onesweep ranks its own way, `onesweep_source.ts`).
 *
 * @module
 */

import { type Names, scanScratch, SORT_BLOCK } from "./sort_keys_source.ts";

/**
 * One stable counting pass over a tile in shared memory by the 4-bit digit at `shift`: each thread
 * takes its run of `CUDENO_ITEMS` elements, counts them per digit in its own column of `cnt`, a block
 * scan over the counts (digit-major) gives every element its place, and the elements move there.
 * Elements at or past `valid` are padding and take digit 15, so they stay last.
 */
export function localPass(n: Names, shift: string): string {
  const { key, pay, u16, u32, unroll } = n;
  const b = n.target.barrier;
  return `{
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

/**
 * The shared memory of a block that ranks tiles: keys, indices, scratch (the 4-bit passes' counters)
 * and the scan's.
 */
export function tileShared(n: Names): string {
  const padded = "CUDENO_PAD(CUDENO_TILE)";
  return `${n.shared(n.key, "sk", padded)}
  ${n.shared(n.pay, "sp", padded)}
  ${n.shared(n.u32, "scratch", 8 * SORT_BLOCK)}
  ${n.shared(n.u32, "scanU", scanScratch(n))}`;
}

/** The 4-bit passes' counters (16 a thread, 16-bit) over the scratch. */
export function counters(n: Names): string {
  return `${n.local(n.u16)}cnt = (${n.local(n.u16)})scratch;`;
}

/**
 * Loads elements `[start, start + valid)` of the tile into shared memory, striped (coalesced): keys
 * made from the input's elements (`first` true, or a C condition) or the keys and indices of a pass.
 */
export function loadTile(n: Names, first: true | string): string {
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
    ${n.target.barrier}`;
}

/**
 * Where each 8-bit digit's run starts and ends in a ranked tile (OpenCL's downsweep): the counters are
 * done with by then, and the two share their scratch.
 */
export function tileBounds(n: Names): string {
  return `${n.local(n.u32)}tileFirst = scratch;
  ${n.local(n.u32)}tileEnd = scratch + ${SORT_BLOCK};`;
}

/**
 * Ranks a tile by the 8-bit digit at `shift` with two 4-bit counting passes, then finds each digit's
 * run by comparing neighbours (OpenCL: no warp votes there).
 */
export function nibbleRank(n: Names): string {
  const b = n.target.barrier;
  return `${counters(n)}
    const ${n.pay} rowBase = 0;
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
        const ${n.u32} d = cudeno_tile_digit(sk, sp, p, fromRow, rowLen, shift);
        if (p == 0 || cudeno_tile_digit(sk, sp, p - 1, fromRow, rowLen, shift) != d) tileFirst[d] = p;
        if (p == valid - 1 || cudeno_tile_digit(sk, sp, p + 1, fromRow, rowLen, shift) != d) tileEnd[d] = p + 1;
      }
    }
    ${b}`;
}
