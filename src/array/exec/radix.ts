/**
 * The radix sort behind `sort`, `argsort`, `topk` and `unique`: sorts every row of a contiguous array
 * (its last axis) with the kernels of `sort_source.ts`, writing the sorted values, the indices within
 * the row, or both. Rows that fit a tile sort in one launch, a block per tile; longer rows go through
 * LSD passes over the whole array, one per 8-bit digit of the key and then of the row number (on CUDA,
 * one Onesweep kernel a pass after a histogram of every pass's digits, with tiles of their own size).
 * Its ping-pong buffers are kept per stream and grow to the largest sort (`SortScratch`).
 *
 * @module
 */

import type { Backend, BackendBuffer, BackendKernel } from "../../device/backend.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { fill } from "../ops/assign.ts";
import { SORT_BLOCK, sortTile, type SortVariant } from "./sort_keys_source.ts";
import { sortSource } from "./sort_source.ts";
import { onesweepTile } from "./onesweep_source.ts";
import { keptScratch, type Scratch } from "../../device/stream.ts";
import { targetOf } from "../../codegen/targets.ts";

/** Limits of the sort's launches (tests lower them to reach large arrays' paths with small ones). */
export const sortLimits = {
  /**
   * Most blocks an upsweep or downsweep (OpenCL's passes, `unique`'s counts) launches, each taking as
   * many whole tiles as it must: enough waves of blocks on a large GPU that the last, partly filled one
   * costs little. CUDA's Onesweep launches a block a tile.
   */
  maxBlocks: 8192,
};

/** How a dtype's bits become keys: the kernels' `kind`, `inf` and `desc` arguments. */
export interface KeyOrder {
  /** 0: unsigned or bool, 1: signed integer, 2: float. */
  readonly kind: number;
  /** The bits of +infinity (floats), as the key type's argument. */
  readonly inf: number | bigint;
  /** All ones of the element's width for a descending order, else 0. */
  readonly desc: number | bigint;
}

const INF_BITS: Partial<Record<DType, bigint>> = {
  float16: 0x7c00n,
  bfloat16: 0x7f80n,
  float32: 0x7f800000n,
  float64: 0x7ff0000000000000n,
};

/** The key arguments for `dtype`, ascending or descending. */
export function keyOrder(dtype: DType, descending: boolean): KeyOrder {
  const { kind, size } = DTYPES[dtype];
  const arg = (v: bigint) => (size === 8 ? v : Number(v));
  return {
    kind: kind === "float" ? 2 : kind === "int" ? 1 : 0,
    inf: arg(INF_BITS[dtype] ?? 0n),
    desc: arg(descending ? (1n << BigInt(size * 8)) - 1n : 0n),
  };
}

/** The variant that sorts `n` elements of `dtype` (64-bit indices from 2^32 elements, or when asked). */
export function variantFor(dtype: DType, n: number, wide = false): SortVariant {
  return { width: DTYPES[dtype].size, wide: wide || n >= 2 ** 32 };
}

/** A kernel of a variant's sort source, compiled once per backend. */
export function sortKernel(backend: Backend, v: SortVariant, name: string): BackendKernel {
  return backend.kernel(`sort:${v.width}${v.wide ? "w" : "n"}:${name}`, () => ({
    name,
    source: sortSource(v, backend.dialect),
  }));
}

/**
 * The scratch memory of one sort (or `unique`), disposed of once its launches are queued. Between
 * calls its buffers are kept per stream (`keptScratch`) and grow to the largest call; while the
 * stream is capturing they are the graph's own: taken for this call and given back at its end, in the
 * graph (memory nodes), so that a replay never uses buffers a later call has replaced.
 */
export class SortScratch {
  readonly #backend: Backend;
  readonly #kept: Map<string, Scratch> | undefined;
  readonly #taken: GPUArray[] = [];

  constructor(backend: Backend) {
    this.#backend = backend;
    this.#kept = keptScratch(backend);
  }

  /** A buffer of at least `bytes` for `role`, its first `bytes` zeroed if asked. */
  buffer(role: string, bytes: number, zeroed = false): BackendBuffer {
    const words = Math.ceil(Math.max(bytes, 4096) / 4);
    let s = this.#kept?.get(`sort:${role}`) as GPUArray | undefined;
    if (this.#kept === undefined) {
      s = new GPUArray(this.#backend, words, "uint32");
      this.#taken.push(s);
    } else if (s === undefined || s.freed || s.nbytes < bytes) {
      s?.free();
      s = new GPUArray(this.#backend, words, "uint32");
      this.#kept.set(`sort:${role}`, s);
    }
    if (zeroed) {
      using head = s!.slice([0, Math.ceil(bytes / 4)]);
      fill(head, 0);
    }
    return s!.buffer;
  }

  /** Gives back the buffers taken for this call alone (in a capture). */
  [Symbol.dispose](): void {
    for (const s of this.#taken) s.free();
  }
}

/** How an upsweep's or downsweep's blocks share `n` elements: whole tiles each, `sortLimits.maxBlocks` at most. */
export function blockShare(n: number, tile: number): { blocks: number; tilesPerBlock: number } {
  const tiles = Math.ceil(n / tile);
  const tilesPerBlock = Math.max(1, Math.ceil(tiles / sortLimits.maxBlocks));
  return { blocks: Math.ceil(tiles / tilesPerBlock), tilesPerBlock };
}

function bitLength(x: number): number {
  return x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1;
}

/**
 * What {@link sortRows} writes: for each output wanted, a contiguous array of the input's size (from
 * any offset of its buffer) that shares no memory with the input.
 */
export interface SortOutputs {
  /** The sorted elements (the input's dtype). */
  readonly values?: GPUArray;
  /** Each sorted element's index within its row (int64). */
  readonly indices?: GPUArray<"int64">;
}

/** How {@link sortRows} sorts. */
export interface SortRowsOptions {
  /** Largest first (a stable descending order: equal elements keep their order). Default false. */
  readonly descending?: boolean;
  /** Use 64-bit indices even below 2^32 elements (tests reach that path this way). Default false. */
  readonly wide?: boolean;
}

/**
 * Sorts each row of `rowLen` elements of the contiguous array `x` (stably, in NumPy's order: NaN
 * last, the two zeros equal) into `out`.
 */
export function sortRows(x: GPUArray, rowLen: number, out: SortOutputs, options: SortRowsOptions = {}): void {
  const n = x.size;
  if (n === 0) return;
  const backend = x.backend;
  const v = variantFor(x.dtype, n, options.wide);
  const order = keyOrder(x.dtype, options.descending === true);
  const outputs = (out.values ? 1 : 0) | (out.indices ? 2 : 0);
  // Unwanted outputs get a buffer the kernels never write.
  const outArgs = [
    out.values?.buffer ?? x.buffer,
    out.values?.offset ?? 0,
    out.indices?.buffer ?? x.buffer,
    out.indices?.offset ?? 0,
  ];
  const rows = n / rowLen;
  const tile = sortTile(v);
  if (rowLen <= tile) {
    const rowsPerTile = Math.min(rows, Math.floor(tile / rowLen));
    sortKernel(backend, v, "cudeno_sort_block").launch(
      { grid: Math.ceil(rows / rowsPerTile), block: SORT_BLOCK },
      [
        x.buffer,
        x.offset,
        ...outArgs,
        n,
        rowLen,
        rowsPerTile,
        2 * v.width,
        Math.ceil(bitLength(rowsPerTile - 1) / 4),
        outputs,
        order.kind,
        order.inf,
        order.desc,
      ],
    );
    return;
  }
  const keyPasses = v.width, passes = keyPasses + Math.ceil(bitLength(rows - 1) / 8);
  const pass = (p: number) => {
    const fromRow = p >= keyPasses ? 1 : 0;
    return {
      fromRow,
      shift: 8 * (fromRow ? p - keyPasses : p),
      stage: (p === 0 ? 1 : 0) | (p === passes - 1 ? 2 : 0),
    };
  };
  const keyBytes = v.width <= 4 ? 4 : 8, payBytes = v.wide ? 8 : 4;
  using scratch = new SortScratch(backend);
  const keys = [0, 1].map((i) => scratch.buffer(`keys${i}`, n * keyBytes));
  const pays = [0, 1].map((i) => scratch.buffer(`pays${i}`, n * payBytes));
  // Pass p reads the input (first) or the previous pass's keys and indices, and writes the next ones (or the outputs).
  const io = (p: number) => [
    p === 0 ? x.buffer : keys[(p - 1) % 2]!,
    p === 0 ? x.buffer : pays[(p - 1) % 2]!,
    p === passes - 1 ? x.buffer : keys[p % 2]!,
    p === passes - 1 ? x.buffer : pays[p % 2]!,
  ];
  const keyArgs = [order.kind, order.inf, order.desc];
  if (targetOf(backend.dialect).decoupledLookback) {
    const tiles = Math.ceil(n / onesweepTile(v)), words = 1 + tiles * SORT_BLOCK;
    const offsets = scratch.buffer("totals", passes * SORT_BLOCK * payBytes, true);
    const states = [0, 1].map((i) => scratch.buffer(`state${i}`, 8 * words));
    sortKernel(backend, v, "cudeno_sort_histogram").launch(
      { grid: Math.min(Math.ceil(n / (SORT_BLOCK * 64)), 4096), block: SORT_BLOCK },
      [x.buffer, x.offset, offsets, states[0], words, n, rowLen, keyPasses, passes, ...keyArgs],
    );
    sortKernel(backend, v, "cudeno_sort_offsets").launch({ grid: 1, block: SORT_BLOCK }, [offsets, passes]);
    const byKey = sortKernel(backend, v, "cudeno_sort_onesweep");
    const byRow = sortKernel(backend, v, "cudeno_sort_onesweep_rows");
    for (let p = 0; p < passes; p++) {
      const { fromRow, shift, stage } = pass(p);
      (fromRow ? byRow : byKey).launch({ grid: tiles, block: SORT_BLOCK }, [
        x.buffer,
        x.offset,
        ...io(p),
        ...outArgs,
        offsets,
        p,
        states[p % 2],
        states[(p + 1) % 2],
        n,
        rowLen,
        shift,
        stage,
        outputs,
        ...keyArgs,
      ]);
    }
    return;
  }
  const { blocks, tilesPerBlock } = blockShare(n, tile);
  const counts = scratch.buffer("counts", SORT_BLOCK * blocks * payBytes);
  const totals = scratch.buffer("totals", SORT_BLOCK * payBytes);
  const count = sortKernel(backend, v, "cudeno_sort_count");
  const scan = sortKernel(backend, v, "cudeno_sort_scan");
  const scatter = sortKernel(backend, v, "cudeno_sort_scatter");
  const grid = { grid: blocks, block: SORT_BLOCK };
  for (let p = 0; p < passes; p++) {
    const { fromRow, shift, stage } = pass(p);
    const [keysIn, paysIn] = io(p);
    const shared = [n, rowLen, shift, fromRow];
    const blocking = [tilesPerBlock, blocks];
    count.launch(grid, [
      x.buffer,
      x.offset,
      keysIn,
      paysIn,
      counts,
      ...shared,
      stage & 1,
      ...keyArgs,
      ...blocking,
    ]);
    scan.launch({ grid: SORT_BLOCK, block: SORT_BLOCK }, [counts, totals, blocks]);
    scatter.launch(grid, [
      x.buffer,
      x.offset,
      ...io(p),
      ...outArgs,
      counts,
      totals,
      ...shared,
      stage,
      outputs,
      ...keyArgs,
      ...blocking,
    ]);
  }
}
