/**
 * Running row kernels (`row_source.ts`): work along one axis whose rows are folded by one or more
 * reductions and then written elementwise, in one kernel — `softmax`, `logSoftmax`, and fused
 * functions that normalise along an axis. The operands are read through their layouts, broadcast to
 * the work's shape; the kept axes are coalesced, and the walk is picked as for softmax: a warp or a
 * block per row where the axis is the innermost in memory (the row cached in registers where it fits),
 * threads across neighbouring rows where it is not.
 *
 * @module
 */

import type { Backend } from "../../device/backend.ts";
import { type GPUArray, sharesMemory } from "../core/gpuarray.ts";
import { broadcastStrides, coalesce, extent, sizeOf } from "../core/layout.ts";
import { copyOf } from "./loop.ts";
import { accDTypes, BLOCK, COLUMNS, VEC } from "./reduction_source.ts";
import { targetOf } from "../../codegen/targets.ts";
import { type RowCode, type RowPlan, rowSource } from "./row_source.ts";

/** Work along one axis: its operands, scalars, stages and output. */
export interface RowWork extends RowCode {
  /** Names the work: every part of the source other than the operands' dtypes and layouts. */
  readonly key: string;
  /** The operands, each broadcast to the work's shape. */
  readonly arrays: readonly GPUArray[];
  /** Scalar parameters, passed as values of {@link RowCode.scalars}' dtypes. */
  readonly values: readonly (number | bigint)[];
}

/** Elements a lane keeps in registers, over all its cached operands. */
const MAX_ITEMS = 32;
const NARROW = 2 ** 30;

function checkOperands(work: RowWork, out: GPUArray, what: string): Backend {
  const backend = out.backend;
  for (const a of work.arrays) {
    if (a.backend !== backend) {
      throw new TypeError(
        `Cannot ${what} arrays on ${backend.device} and ${a.backend.device}: copy one to the other's backend first`,
      );
    }
  }
  const dtypes = new Set([work.out, ...work.stages.flatMap((s) => [...accDTypes(s.acc), s.out])]);
  for (const d of dtypes) {
    if (!backend.supports(d)) {
      throw new TypeError(
        `Cannot ${what} on ${backend.device}: it needs ${d} arithmetic, which the device lacks`,
      );
    }
  }
  return backend;
}

/**
 * Runs `work` over `shape` along `axis`: writes `out` (of `shape`, any layout that is not a
 * broadcast) element by element. An operand that shares memory with `out` in another layout is read
 * from a copy.
 */
export function runRows(
  work: RowWork,
  shape: readonly number[],
  axis: number,
  out: GPUArray,
  what: string,
): void {
  const backend = checkOperands(work, out, what);
  const n = shape[axis]!;
  const keptAxes = shape.map((_, i) => i).filter((i) => i !== axis);
  const nOut = sizeOf(keptAxes.map((i) => shape[i]!));
  if (n === 0 || nOut === 0) return;
  const arrays = [...work.arrays];
  let strides = arrays.map((a) => broadcastStrides(a, shape, what));
  const copies: GPUArray[] = [];
  arrays.forEach((a, k) => {
    const same = a.offset === out.offset && strides[k]!.every((s, i) => s === out.strides[i]);
    if (sharesMemory(a, out) && !same) {
      arrays[k] = copyOf(a);
      copies.push(arrays[k]!);
    }
  });
  strides = arrays.map((a) => broadcastStrides(a, shape, what));
  const kept = coalesce(keptAxes.map((i) => shape[i]!), [
    ...strides.map((s) => keptAxes.map((i) => s[i]!)),
    keptAxes.map((i) => out.strides[i]!),
  ]);
  const rows = [...strides.map((s) => s[axis]!), out.strides[axis]!];
  const lead = Math.max(0, rows.findIndex((s) => s !== 0));
  const innerKept = Math.abs(kept.strides[lead]![kept.shape.length - 1]!);
  const row = nOut === 1 || innerKept === 0 || Math.abs(rows[lead]!) < innerKept;
  const cachedOperands = Math.max(1, strides.filter((s) => s[axis] !== 0).length);
  const maxItems = 2 ** Math.max(0, Math.floor(Math.log2(MAX_ITEMS / cachedOperands)));
  const lanes = n <= 32 * maxItems && nOut >= 64 ? 32 : BLOCK;
  const items = n <= lanes * maxItems ? 2 ** Math.ceil(Math.log2(Math.ceil(n / lanes))) : 0;
  const aligned = (x: GPUArray, k: number) =>
    x.offset % VEC === 0 && kept.strides[k]!.every((s, dim) => s % VEC === 0 || kept.shape[dim] === 1);
  const stepped = arrays.map((a, k) => ({ a, k })).filter(({ k }) => rows[k] !== 0);
  const target = targetOf(backend.dialect);
  const vector = row && items >= VEC && rows[arrays.length] === 1 && aligned(out, arrays.length) &&
    target.hasVector(out.dtype) &&
    stepped.every(({ a, k }) => rows[k] === 1 && aligned(a, k) && target.hasVector(a.dtype));
  const narrow = sizeOf(shape) < NARROW && [...strides, out.strides].every((s) => {
    const [lo, hi] = extent(shape, s);
    return lo > -NARROW && hi < NARROW;
  });
  const plan: RowPlan = {
    path: row ? "row" : "col",
    lanes: row ? lanes : COLUMNS,
    items: row ? items : 0,
    vector,
    kept: kept.shape.length,
    narrow,
    arrays: arrays.map((a, k) => ({ dtype: a.dtype, uniform: rows[k] === 0 })),
  };
  const dtypes = plan.arrays.map((a) => `${a.dtype}${a.uniform ? "0" : ""}`).join(",");
  const key = `${work.key}|${plan.path}${plan.lanes}x${plan.items}${vector ? "v" : ""}|${plan.kept}|${
    narrow ? "n" : "w"
  }|${dtypes}>${work.out}|${work.scalars.join(",")}`;
  const kernel = backend.kernel(
    key,
    () => ({ name: work.name, source: rowSource(work, plan, backend.dialect) }),
  );
  const args: unknown[] = [];
  arrays.forEach((a, k) => args.push(a.buffer, a.offset, ...kept.strides[k]!, rows[k]));
  args.push(out.buffer, out.offset, ...kept.strides[arrays.length]!, rows[arrays.length]);
  args.push(...work.values, ...kept.shape.slice(1), nOut, n);
  const perBlock = row ? BLOCK / plan.lanes : COLUMNS;
  kernel.launch({ grid: Math.ceil(nOut / perBlock), block: BLOCK }, args);
  for (const c of copies) c.free();
}
