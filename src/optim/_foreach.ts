/**
 * Multi-tensor updates, as PyTorch's `_foreach` kernels and `multi_tensor_apply` run them: one
 * elementwise kernel updates many tensors in one launch. The tensors of a launch are pointer operands
 * of one loop (`exec/loop.ts`) over their elements laid end to end; each element finds its tensor by a
 * binary search over the tensors' start offsets (scalar parameters), then runs the update's statement
 * on that tensor's element, in the compute type (float32, or float64 for float64 parameters). A launch
 * takes as many tensors as fit in the dialect's kernel-parameter space (4 KB on CUDA, the 1 KB every
 * OpenCL device offers); the last launch's list is padded with empty ranges, so one kernel serves
 * every launch of an update and dtype.
 *
 * @module
 */

import type { Backend } from "../device/backend.ts";
import type { Dialect } from "../kernel/ctypes.ts";
import type { DType } from "../kernel/dtype.ts";
import { targetOf } from "../codegen/targets.ts";
import { GPUArray, persistent } from "../array/core/gpuarray.ts";
import { runLoop } from "../array/exec/loop.ts";

/** One operand of an update, per tensor: the parameter, its gradient, a state buffer. */
export interface ForeachSlot {
  /** Its name in the update's {@link ForeachUpdate.body}. */
  readonly name: string;
  /** Whether the update writes it. */
  readonly written: boolean;
}

/** What the body of an update reads and writes, as C. */
export interface ForeachElement {
  /** Slot `name`'s element, read as the compute type. */
  read(name: string): string;
  /** A statement storing `expr` (of the compute type) into slot `name`'s element. */
  write(name: string, expr: string): string;
  /** Scalar parameter `name`, of the compute type. */
  scalar(name: string): string;
  /** The shared 0-d operand's value, as the compute type. */
  readonly shared: string;
  /** The compute type's C spelling. */
  readonly type: string;
  /** The compute type's version of math function `name` (`sqrt` is `sqrtf` on CUDA for float32). */
  fn(name: string): string;
}

/** An update run over every element of many tensors. */
export interface ForeachUpdate {
  /** Names the update's source (its flags): the kernel is compiled once per key and dtypes. */
  readonly key: string;
  /** The kernel's name. */
  readonly name: string;
  /** The operands of each tensor, in the order {@link foreach} takes them. */
  readonly slots: readonly ForeachSlot[];
  /** The scalar parameters' names, in the order {@link foreach} takes their values. */
  readonly scalars: readonly string[];
  /** C statements updating one element. */
  readonly body: (element: ForeachElement) => string;
}

/** Bytes of kernel parameters a launch may take, by dialect (with room for alignment). */
const PARAMETER_BYTES: Readonly<Record<Dialect, number>> = { cuda: 4000, opencl: 1000 };

/** How many tensors one launch of `update` takes on `dialect`. */
export function tensorsPerLaunch(update: ForeachUpdate, dialect: Dialect): number {
  // The shared operand (pointer and offset), the element count and the scalars, then per tensor
  // each slot's pointer and offset, and its start offset (the first tensor's is 0, not passed).
  const fixed = 16 + 8 + 8 * update.scalars.length - 8;
  return Math.max(1, Math.floor((PARAMETER_BYTES[dialect] - fixed) / (16 * update.slots.length + 8)));
}

const shared = new WeakMap<Backend, GPUArray>();

/** A 0-d array of `backend` that launches with no shared operand pass (never read). */
function placeholder(backend: Backend): GPUArray {
  let a = shared.get(backend);
  if (a === undefined) {
    a = persistent(() => new GPUArray(backend, [], "float32"));
    shared.set(backend, a);
  }
  return a;
}

const computeOf = (dtype: DType): DType => (dtype === "float64" ? "float64" : "float32");

/**
 * Runs `update` over every element of each tensor of `tensors` (one list of arrays per tensor, in the
 * order of the update's slots, C-contiguous, of one size per tensor) with the scalar `values`, in as
 * few launches as fit: tensors are grouped by backend and dtypes, each group launched in lists of
 * {@link tensorsPerLaunch}. The compute type follows the first slot's dtype. `values` are numbers
 * passed with each launch, or a 1-D array of the compute type holding them on the device (read by
 * every element: what a compiled step's replay rewrites with `writeValues` (`exec/loop.ts`) before it runs).
 * `sharedOperand`, a 0-d array read by every element, is the body's `shared`.
 */
export function foreach(
  update: ForeachUpdate,
  tensors: readonly (readonly GPUArray[])[],
  values: readonly number[] | GPUArray,
  sharedOperand?: GPUArray,
): void {
  const groups = new Map<string, (readonly GPUArray[])[]>();
  for (const list of tensors) {
    const key = list.map((a) => a.dtype).join(",");
    const backendKey = `${list[0]!.backend.device}|${key}`;
    let group = groups.get(backendKey);
    if (group === undefined) groups.set(backendKey, group = []);
    group.push(list);
  }
  for (const group of groups.values()) {
    const backend = group[0]![0]!.backend;
    const per = tensorsPerLaunch(update, backend.dialect);
    for (let at = 0; at < group.length; at += per) {
      launch(update, group.slice(at, at + per), per, values, sharedOperand ?? placeholder(backend));
    }
  }
}

function launch(
  update: ForeachUpdate,
  lists: readonly (readonly GPUArray[])[],
  per: number,
  values: readonly number[] | GPUArray,
  sharedOperand: GPUArray,
): void {
  const backend = sharedOperand.backend, dialect = backend.dialect, t = targetOf(dialect);
  const dtypes = lists[0]!.map((a) => a.dtype);
  const compute = computeOf(dtypes[0]!);
  const ct = t.cType(compute), slots = update.slots, count = slots.length;
  // Start offsets of tensors 1 to per - 1; the padding tensors start (and end) at the total.
  const starts: number[] = [];
  let total = 0;
  for (let k = 0; k < per; k++) {
    if (k > 0) starts.push(total);
    if (k < lists.length) total += lists[k]![0]!.size;
  }
  const onDevice = values instanceof GPUArray;
  const pointers = onDevice ? [{ array: values, written: false }] : [];
  const first = pointers.length;
  for (let k = 0; k < per; k++) {
    const list = lists[Math.min(k, lists.length - 1)]!;
    for (let s = 0; s < count; s++) pointers.push({ array: list[s]!, written: slots[s]!.written });
  }
  runLoop(
    {
      key: `foreach:${update.key}:${per}:${onDevice ? "device" : "host"}`,
      name: update.name,
      arrays: [sharedOperand],
      written: [false],
      scalars: [
        ...starts.map((value) => ({ value, dtype: "int64" as const })),
        ...(onDevice ? [] : values.map((value) => ({ value, dtype: compute }))),
      ],
      pointers,
      statement: (ref, scalar, index, pointer) => {
        const slotOf = (name: string) => {
          const k = slots.findIndex((s) => s.name === name);
          if (k < 0) throw new Error(`foreach ${update.name}: no slot ${name}`);
          return k;
        };
        const element: ForeachElement = {
          read: (name) => `((${ct})${t.load(`P${slotOf(name)}[j]`, dtypes[slotOf(name)]!)})`,
          write: (name, expr) => `P${slotOf(name)}[j] = ${t.castTo(expr, dtypes[slotOf(name)]!)};`,
          scalar: (name) =>
            onDevice
              ? `((${ct})(${pointer[0]})[${update.scalars.indexOf(name)}])`
              : scalar[per - 1 + update.scalars.indexOf(name)]!,
          shared: `((${ct})${t.load(ref[0]!, sharedOperand.dtype)})`,
          type: ct,
          fn: (name) => t.mathFn(name, compute),
        };
        const start = (k: number) => (k === 0 ? "0" : scalar[k - 1]!);
        const find = (lo: number, hi: number): string => {
          if (hi - lo === 1) {
            return `${
              slots.map((_, s) => `P${s} = ${pointer[first + lo * count + s]};`).join(" ")
            } j = ${index} - ${start(lo)};`;
          }
          const mid = (lo + hi) >> 1;
          return `if (${index} < ${start(mid)}) { ${find(lo, mid)} } else { ${find(mid, hi)} }`;
        };
        const declare = slots.map((s, k) =>
          `${t.globalSpace}${s.written ? "" : "const "}${t.cType(dtypes[k]!)} *P${k};`
        ).join(" ");
        return `{ ${declare} ${t.indexType} j; ${find(0, per)}\n${update.body(element)} }`;
      },
    },
    [total],
    `run ${update.name}`,
  );
}
