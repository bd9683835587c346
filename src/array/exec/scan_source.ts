/**
 * The CUDA C and OpenCL C of scans (inclusive prefix sums and products) along one axis of an array of
 * any layout. The scanned axis is a row of `n` elements `stride` apart; the other ("kept") axes pick
 * the row, found from its C-order number through their extents and strides. Four kernels:
 *
 * - `tiles`: a block scans one tile of a row (its elements loaded striped into shared memory, a
 *   serial scan of each thread's run, a scan of the runs' totals across the block) and adds the carry
 *   of the tiles before it, read from the scanned tile totals (OpenCL's three passes: `reduce`, a
 *   scan of the totals, `tiles`);
 * - `lookback` (CUDA): the same tile scan, single-pass: each block takes the next tile number from a
 *   counter, publishes its tile's total, and finds its carry by looking back over its predecessors'
 *   published totals and inclusive prefixes a warp at a time (Merrill & Garland's decoupled look-back);
 * - `reduce`: the total of each tile;
 * - `columns`: a thread per row walks the row serially (rows that are short, or many rows whose
 *   outputs lie side by side).
 *
 * @module
 */

import type { Dialect } from "../../kernel/ctypes.ts";
import { type DType, DTYPES } from "../../kernel/dtype.ts";
import type { Target } from "../../codegen/target.ts";
import { targetOf } from "../../codegen/targets.ts";

/** Threads per block of every scan kernel. */
export const SCAN_BLOCK = 256;

/** The kernels a scan is made of. */
export type ScanKernel = "tiles" | "lookback" | "reduce" | "columns";

/** What a scan kernel's source depends on. */
export interface ScanPlan {
  /** Sum or product. */
  readonly op: "sum" | "prod";
  /** The input's dtype. */
  readonly input: DType;
  /** The accumulator's dtype. */
  readonly acc: DType;
  /** The output's dtype. */
  readonly out: DType;
  /** What is scanned: the elements, or 1 for each non-zero element and 0 for each zero. */
  readonly map: "value" | "nonzero";
  /** How many kept axes find a row (0: one row). */
  readonly kept: number;
  /** Whether the row's elements are neighbours (stride 1). */
  readonly unit: boolean;
  /** Elements each thread scans in a tile (tile kernels). */
  readonly items: number;
}

/** The elements of one tile: a block's threads times each thread's items. */
export function tileSize(plan: ScanPlan): number {
  return SCAN_BLOCK * plan.items;
}

/** The kernel name of each kind. */
function nameOf(kind: ScanKernel): string {
  return `cudeno_scan_${kind}`;
}

interface Parts {
  readonly t: Target;
  readonly ix: string;
  readonly acc: string;
  readonly ident: string;
  readonly op: (a: string, b: string) => string;
  /** The mapped accumulator value of the row's element `j`. */
  readonly element: (j: string) => string;
}

function partsOf(plan: ScanPlan, d: Dialect): Parts {
  const t = targetOf(d);
  const acc = t.cType(plan.acc);
  const element = (j: string) => {
    const x = t.load(`x[base + ${plan.unit ? j : `(${j}) * xs`}]`, plan.input);
    if (plan.map === "nonzero") return `((${x}) != 0 ? (${acc})1 : (${acc})0)`;
    // Each element becomes the output's dtype first, as NumPy converts to the `dtype` asked for.
    const converted = plan.out === plan.input ? x : t.load(t.castTo(x, plan.out), plan.out);
    return `((${acc})(${converted}))`;
  };
  return {
    t,
    ix: t.indexType,
    acc,
    ident: t.literal(plan.op === "sum" ? 0 : 1, plan.acc),
    op: plan.op === "sum" ? (a, b) => `(${a}) + (${b})` : (a, b) => `(${a}) * (${b})`,
    element,
  };
}

/** The input's parameters: the pointer, its element offset, each kept axis's extent and stride, the row's stride. */
function inputParams(plan: ScanPlan, p: Parts): string[] {
  const list = [p.t.pointerParam(plan.input, "x", true), `${p.ix} xo`];
  for (let k = 0; k < plan.kept; k++) list.push(`${p.ix} ke${k}`, `${p.ix} kt${k}`);
  list.push(`${p.ix} xs`);
  return list;
}

/** Sets `base` to the element offset of row `row` (its kept index in C order). */
function rowBase(plan: ScanPlan, p: Parts, row: string): string {
  if (plan.kept === 0) return `const ${p.ix} base = 0;`;
  const lines = [`${p.ix} base = 0, rest = ${row};`];
  for (let k = plan.kept - 1; k >= 1; k--) {
    lines.push(`base += (rest % ke${k}) * kt${k}; rest /= ke${k};`);
  }
  lines.push("base += rest * kt0;");
  return lines.join("\n  ");
}

/**
 * The scan across the block of each thread's run total `v[I - 1]`: sets `before` (the runs before the
 * thread's) and `total` (the tile's). CUDA scans within warps by shuffles, then the warps' totals;
 * OpenCL C 1.2, which has no shuffles, scans in shared memory (Hillis and Steele).
 */
function blockScan(plan: ScanPlan, p: Parts): string {
  const B = SCAN_BLOCK, I = plan.items, bar = p.t.barrier;
  if (p.t.warpShuffle) {
    const warps = B / 32;
    return `__shared__ ${p.acc} w[${warps}];
  const int lane = t & 31, warp = t >> 5;
  ${p.acc} run = v[${I - 1}];
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const ${p.acc} u = __shfl_up_sync(0xffffffffu, run, o);
    if (lane >= o) run = ${p.op("u", "run")};
  }
  ${p.acc} run_before = __shfl_up_sync(0xffffffffu, run, 1);
  if (lane == 0) run_before = ${p.ident};
  if (lane == 31) w[warp] = run;
  __syncthreads();
  if (warp == 0) {
    ${p.acc} z = lane < ${warps} ? w[lane] : ${p.ident};
#pragma unroll
    for (int o = 1; o < ${warps}; o <<= 1) {
      const ${p.acc} u = __shfl_up_sync(0xffffffffu, z, o);
      if (lane >= o) z = ${p.op("u", "z")};
    }
    if (lane < ${warps}) w[lane] = z;
  }
  __syncthreads();
  const ${p.acc} before = ${p.op(`warp > 0 ? w[warp - 1] : ${p.ident}`, "run_before")};
  const ${p.acc} total = w[${warps - 1}];`;
  }
  return `${p.t.sharedArray(plan.acc, "w", B)}
  w[t] = v[${I - 1}];
  ${bar}
  for (int o = 1; o < ${B}; o <<= 1) {
    const ${p.acc} u = t >= o ? w[t - o] : ${p.ident};
    ${bar}
    w[t] = ${p.op("u", "w[t]")};
    ${bar}
  }
  const ${p.acc} before = t > 0 ? w[t - 1] : ${p.ident};
  const ${p.acc} total = w[${B - 1}];`;
}

/**
 * A block's scan of its tile, up to the carry: leaves each thread's inclusive run in `v`, its
 * exclusive prefix within the tile in `before`, and the tile's total in `total`.
 */
function tileScan(plan: ScanPlan, p: Parts): string {
  const { local } = p.t.threadIds;
  const B = SCAN_BLOCK, I = plan.items, bar = p.t.barrier;
  const pad = (e: string) => `(${e}) + ((${e}) >> 5)`;
  return `${p.t.sharedArray(plan.acc, "s", B * I + (B * I) / 32)}
  const int t = ${local};
  const ${p.ix} row = g / tilesPerRow, j0 = (g - row * tilesPerRow) * ${B * I};
  ${rowBase(plan, p, "row")}
  ${p.t.unroll("  ")}for (int k = 0; k < ${I}; k++) {
    const int e = k * ${B} + t;
    const ${p.ix} j = j0 + e;
    s[${pad("e")}] = j < n ? ${p.element("j")} : ${p.ident};
  }
  ${bar}
  ${p.acc} v[${I}];
  ${p.t.unroll("  ")}for (int k = 0; k < ${I}; k++) v[k] = s[${pad(`t * ${I} + k`)}];
  ${p.t.unroll("  ")}for (int k = 1; k < ${I}; k++) v[k] = ${p.op("v[k - 1]", "v[k]")};
  ${blockScan(plan, p)}`;
}

/** Adds the carry to the thread's runs and stores the tile, striped, into row `row` of `y`. */
function tileStore(plan: ScanPlan, p: Parts): string {
  const B = SCAN_BLOCK, I = plan.items, bar = p.t.barrier;
  const pad = (e: string) => `(${e}) + ((${e}) >> 5)`;
  return `const ${p.acc} c = ${p.op("carry", "before")};
  ${p.t.unroll("  ")}for (int k = 0; k < ${I}; k++) s[${pad(`t * ${I} + k`)}] = ${p.op("c", "v[k]")};
  ${bar}
  ${p.t.unroll("  ")}for (int k = 0; k < ${I}; k++) {
    const int e = k * ${B} + t;
    const ${p.ix} j = j0 + e;
    if (j < n) y[row * n + j] = ${p.t.castTo(`s[${pad("e")}]`, plan.out)};
  }`;
}

function tilesSource(plan: ScanPlan, p: Parts): string {
  const { group } = p.t.threadIds;
  const params = [
    ...inputParams(plan, p),
    p.t.pointerParam(plan.out, "y"),
    `${p.ix} n`,
    `${p.ix} tilesPerRow`,
    p.t.pointerParam(plan.acc, "carried", true),
  ];
  return `${p.t.kernelHead} ${nameOf("tiles")}(${params.join(", ")}) {
  x += xo;
  const ${p.ix} g = ${group};
  ${tileScan(plan, p)}
  const ${p.acc} carry = g - row * tilesPerRow > 0 ? carried[g - 1] : ${p.ident};
  ${tileStore(plan, p)}
}`;
}

/** Predecessors each lane of the look-back warp reads at once: a window of 128 tiles. */
const LOOKBACK_READS = 4;

/**
 * How the look-back publishes and reads a tile's status: a flag and a value. A 4-byte accumulator
 * shares one 64-bit word with its flag (the flag above, the value's bits below), written and read
 * whole: the state holds `cap` such words. An 8-byte one is written before its flag and read after
 * it, with a fence between: the state holds `cap` 32-bit flags, then `cap` totals and `cap` inclusive
 * prefixes. The two layouts never share a state buffer.
 */
function statusAccess(plan: ScanPlan, p: Parts): {
  declare: string;
  publish: (prefix: string, value: string) => string;
  read: (m: string) => string;
  ready: (m: string) => string;
  value: (m: string) => string;
} {
  if (DTYPES[plan.acc].size === 4) {
    const [toBits, fromBits] = plan.acc === "float32"
      ? ["__float_as_uint", "__uint_as_float"]
      : ["(unsigned int)", `(${p.acc})`];
    return {
      declare: "volatile unsigned long long *status = (volatile unsigned long long *)(state + 8);",
      publish: (prefix, value) =>
        `status[g] = ((unsigned long long)(${prefix} ? has_prefix : has_total) << 32) | (unsigned long long)${toBits}(${value});`,
      read: (m) => `word[${m}] = status[q[${m}]];`,
      ready: (m) => `(unsigned int)(word[${m}] >> 32)`,
      value: (m) => `${fromBits}((unsigned int)word[${m}])`,
    };
  }
  return {
    declare: `volatile unsigned int *flags = (volatile unsigned int *)(state + 8);
  volatile ${p.acc} *aggregate = (volatile ${p.acc} *)(state + 8 + 4 * cap);
  volatile ${p.acc} *inclusive = aggregate + cap;`,
    publish: (prefix, value) =>
      `(${prefix} ? inclusive : aggregate)[g] = ${value}; __threadfence(); flags[g] = ${prefix} ? has_prefix : has_total;`,
    read: (m) => `word[${m}] = flags[q[${m}]];`,
    ready: (m) => `word[${m}]`,
    value: (m) => `(word[${m}] == has_prefix ? inclusive[q[${m}]] : aggregate[q[${m}]])`,
  };
}

/**
 * The single-pass scan (CUDA). The state buffer holds a 64-bit tile counter, then the tiles'
 * statuses ({@link statusAccess}). A flag below `2 * epoch + 1` (left by an earlier launch, or zero)
 * means nothing is published yet; `2 * epoch + 1` that the tile's total is, and `2 * epoch + 2` that
 * its inclusive prefix is. Warp 0 looks back over a window of predecessors at a time, nearest first,
 * adding their totals until one has its inclusive prefix (a row's first tile always has).
 */
function lookbackSource(plan: ScanPlan, p: Parts): string {
  const params = [
    ...inputParams(plan, p),
    p.t.pointerParam(plan.out, "y"),
    "long long n",
    "long long tilesPerRow",
    "unsigned char *state",
    "long long cap",
    "unsigned long long issued",
    "unsigned int epoch",
  ];
  const status = statusAccess(plan, p);
  const V = LOOKBACK_READS, packed = DTYPES[plan.acc].size === 4;
  // Four blocks an SM (64 registers; 32 items a thread spill 16 bytes: ptxas, sm_90). 2^28 float32
  // on the H200 at 32 items: 2150 GB/s with two blocks an SM, 2330-2460 with three, 2480-2590 with four.
  return `${p.t.kernelHead} ${p.t.launchBounds(SCAN_BLOCK, 4)} ${nameOf("lookback")}(${params.join(", ")}) {
  x += xo;
  unsigned long long *counter = (unsigned long long *)state;
  ${status.declare}
  __shared__ unsigned long long tile;
  __shared__ ${p.acc} shared_carry;
  // Tiles are numbered in the order blocks start, so every tile a block waits for has started.
  if (threadIdx.x == 0) tile = atomicAdd(counter, 1ULL) - issued;
  __syncthreads();
  const long long g = (long long)tile;
  ${tileScan(plan, p)}
  if (t < 32) {
    const unsigned int has_total = 2u * epoch + 1u, has_prefix = 2u * epoch + 2u;
    const long long first = row * tilesPerRow;
    ${p.acc} exclusive = ${p.ident};
    if (t == 0) { ${status.publish("(g == first)", "total")} }
    // Predecessor m * 32 + t of a window is tile k - (m * 32 + t); those before the row's first
    // tile count as a prefix of nothing.
    for (long long k = g - 1; g != first; k -= ${32 * V}) {
      long long q[${V}];
      ${packed ? "unsigned long long" : "unsigned int"} word[${V}];
#pragma unroll
      for (int m = 0; m < ${V}; m++) {
        q[m] = k - (m * 32 + t);
        if (q[m] >= first) ${status.read("m")}
      }
      int stop = ${32 * V};
#pragma unroll
      for (int m = 0; m < ${V}; m++) {
        unsigned int f = has_prefix;
        if (q[m] >= first) {
          while ((f = ${status.ready("m")}) < has_total) ${status.read("m")}
        }
        const unsigned int found = __ballot_sync(0xffffffffu, f == has_prefix);
        if (found != 0u && stop == ${32 * V}) stop = m * 32 + __ffs((int)found) - 1;
      }
      ${packed ? "" : "__threadfence();\n      "}${p.acc} part = ${p.ident};
#pragma unroll
      for (int m = 0; m < ${V}; m++) {
        if (m * 32 + t <= stop && q[m] >= first) part = ${p.op("part", status.value("m"))};
      }
#pragma unroll
      for (int o = 16; o > 0; o >>= 1) part = ${p.op("part", "__shfl_down_sync(0xffffffffu, part, o)")};
      exclusive = ${p.op("part", "exclusive")};
      if (stop < ${32 * V}) break;
    }
    if (t == 0 && g != first) { ${status.publish("true", p.op("exclusive", "total"))} }
    if (t == 0) shared_carry = exclusive;
  }
  __syncthreads();
  const ${p.acc} carry = shared_carry;
  ${tileStore(plan, p)}
}`;
}

function reduceSource(plan: ScanPlan, p: Parts): string {
  const { local, group } = p.t.threadIds;
  const B = SCAN_BLOCK, bar = p.t.barrier;
  const params = [
    ...inputParams(plan, p),
    `${p.ix} n`,
    `${p.ix} tilesPerRow`,
    p.t.pointerParam(plan.acc, "partial"),
  ];
  return `${p.t.kernelHead} ${nameOf("reduce")}(${params.join(", ")}) {
  x += xo;
  ${p.t.sharedArray(plan.acc, "w", B)}
  const int t = ${local};
  const ${p.ix} g = ${group};
  const ${p.ix} row = g / tilesPerRow, j0 = (g - row * tilesPerRow) * ${B * plan.items};
  ${rowBase(plan, p, "row")}
  ${p.acc} a = ${p.ident};
  ${p.t.unroll("  ")}for (int k = 0; k < ${plan.items}; k++) {
    const ${p.ix} j = j0 + k * ${B} + t;
    if (j < n) a = ${p.op("a", p.element("j"))};
  }
  w[t] = a;
  ${bar}
  for (int o = ${B / 2}; o > 0; o >>= 1) {
    if (t < o) w[t] = ${p.op("w[t]", "w[t + o]")};
    ${bar}
  }
  if (t == 0) partial[g] = w[0];
}`;
}

function columnsSource(plan: ScanPlan, p: Parts): string {
  const { local, group } = p.t.threadIds;
  const params = [
    ...inputParams(plan, p),
    p.t.pointerParam(plan.out, "y"),
    `${p.ix} n`,
    `${p.ix} rows`,
    `${p.ix} inner`,
  ];
  return `${p.t.kernelHead} ${nameOf("columns")}(${params.join(", ")}) {
  x += xo;
  const ${p.ix} r = (${p.ix})${group} * ${SCAN_BLOCK} + ${local};
  if (r >= rows) return;
  ${rowBase(plan, p, "r")}
  const ${p.ix} o = (r / inner) * n * inner + r % inner;
  ${p.acc} a = ${p.ident};
  for (${p.ix} j = 0; j < n; j++) {
    a = ${p.op("a", p.element("j"))};
    y[o + j * inner] = ${p.t.castTo("a", plan.out)};
  }
}`;
}

/**
 * The source of one scan kernel and its name.
 *
 * @throws {TypeError} for the look-back kernel in OpenCL C.
 */
export function scanSource(kind: ScanKernel, plan: ScanPlan, d: Dialect): { name: string; source: string } {
  const p = partsOf(plan, d);
  let body: string;
  switch (kind) {
    case "tiles":
      body = tilesSource(plan, p);
      break;
    case "lookback":
      if (!p.t.decoupledLookback) {
        throw new TypeError(`Cannot scan with a decoupled look-back in ${p.t.language}`);
      }
      body = lookbackSource(plan, p);
      break;
    case "reduce":
      body = reduceSource(plan, p);
      break;
    case "columns":
      body = columnsSource(plan, p);
  }
  const head = p.t.preamble([...new Set([plan.input, plan.acc, plan.out])]);
  return { name: nameOf(kind), source: `${head}\n${body}\n` };
}
