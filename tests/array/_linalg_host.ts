/**
 * Host references for the linear-algebra tests: C-order float64 arrays, NumPy's matmul rules written
 * out directly, and a plain einsum that loops over every assignment of the indices. Independent of the
 * library: they read arrays only through `get()`.
 */

import * as ga from "../../src/array/mod.ts";

/** A host array in C order. */
export interface Host {
  readonly shape: readonly number[];
  readonly data: readonly number[];
}

/** Deterministic small integers in [-4, 4] (mulberry32): products and sums of them are exact in float32. */
export function smallInts(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % 9) - 4;
  });
}

export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((p, d) => p * d, 1);
}

/** A device array of `shape` filled with {@link smallInts}. */
export function deviceInts<D extends ga.DType = "float32">(
  shape: readonly number[],
  seed: number,
  dtype?: D,
): ga.GPUArray<D> {
  const values = smallInts(sizeOf(shape), seed);
  using f32 = ga.toGpu(Float32Array.from(values), [...shape]);
  return f32.astype((dtype ?? "float32") as D);
}

/** The elements of a device array (any layout) on the host. */
export function host(x: ga.GPUArray): Host {
  return { shape: [...x.shape], data: Array.from(x.get() as ArrayLike<number | bigint>, Number) };
}

function stridesOf(shape: readonly number[]): number[] {
  const out = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    out[i] = s;
    s *= shape[i]!;
  }
  return out;
}

/** NumPy's matmul: 1-D operands promoted and their axis dropped, batch dimensions broadcast. */
export function hostMatmul(a: Host, b: Host): Host {
  const as = a.shape.length === 1 ? [1, a.shape[0]!] : a.shape;
  const bs = b.shape.length === 1 ? [b.shape[0]!, 1] : b.shape;
  const [m, k] = as.slice(-2) as [number, number], n = bs[bs.length - 1]!;
  const ba = as.slice(0, -2), bb = bs.slice(0, -2);
  const nb = Math.max(ba.length, bb.length);
  const pad = (s: readonly number[]) => [...new Array(nb - s.length).fill(1), ...s];
  const pa = pad(ba), pb = pad(bb);
  const batch = pa.map((d, i) => Math.max(d, pb[i]!));
  const sa = stridesOf([...pa, m, k]), sb = stridesOf([...pb, k, n]);
  const data: number[] = [];
  const count = sizeOf(batch);
  for (let flat = 0; flat < count; flat++) {
    let rest = flat, offA = 0, offB = 0;
    for (let d = nb - 1; d >= 0; d--) {
      const i = rest % batch[d]!;
      rest = Math.floor(rest / batch[d]!);
      if (pa[d] !== 1) offA += i * sa[d]!;
      if (pb[d] !== 1) offB += i * sb[d]!;
    }
    for (let r = 0; r < m; r++) {
      for (let c = 0; c < n; c++) {
        let s = 0;
        for (let p = 0; p < k; p++) s += a.data[offA + r * k + p]! * b.data[offB + p * n + c]!;
        data.push(s);
      }
    }
  }
  const shape = [...batch, ...(a.shape.length === 1 ? [] : [m]), ...(b.shape.length === 1 ? [] : [n])];
  return { shape, data };
}

/** Einstein summation over every assignment of the indices (explicit `->` form, letters only). */
export function hostEinsum(subscripts: string, ...operands: Host[]): Host {
  const [inputs, out] = subscripts.replace(/\s+/g, "").split("->") as [string, string];
  const terms = inputs.split(",");
  const extent = new Map<string, number>();
  terms.forEach((t, i) => [...t].forEach((c, axis) => extent.set(c, operands[i]!.shape[axis]!)));
  const letters = [...extent.keys()];
  const shape = [...out].map((c) => extent.get(c)!);
  const data = new Array<number>(sizeOf(shape)).fill(0);
  const value = new Map<string, number>();
  const outStrides = stridesOf(shape);
  const strides = operands.map((x) => stridesOf(x.shape));
  const visit = (depth: number): void => {
    if (depth === letters.length) {
      let p = 1;
      terms.forEach((t, i) => {
        let off = 0;
        [...t].forEach((c, axis) => off += value.get(c)! * strides[i]![axis]!);
        p *= operands[i]!.data[off]!;
      });
      let o = 0;
      [...out].forEach((c, axis) => o += value.get(c)! * outStrides[axis]!);
      data[o]! += p;
      return;
    }
    for (let v = 0; v < extent.get(letters[depth]!)!; v++) {
      value.set(letters[depth]!, v);
      visit(depth + 1);
    }
  };
  visit(0);
  return { shape, data };
}

/** Relative error ‖got − want‖ / ‖want‖ (0 when both are zero). */
export function relativeError(got: readonly number[], want: readonly number[]): number {
  let diff = 0, norm = 0;
  for (let i = 0; i < want.length; i++) {
    diff += (got[i]! - want[i]!) ** 2;
    norm += want[i]! ** 2;
  }
  return norm === 0 ? Math.sqrt(diff) : Math.sqrt(diff / norm);
}

/**
 * Counts the device allocations `fn` makes on `backend` (by wrapping its `alloc`): how a test tells
 * that an operand was read in place rather than copied.
 */
export function allocations(backend: ga.Backend, fn: () => void): number {
  const own = Object.getOwnPropertyDescriptor(backend, "alloc");
  const alloc = backend.alloc;
  let count = 0;
  Object.defineProperty(backend, "alloc", {
    value: (bytes: number) => {
      count++;
      return alloc.call(backend, bytes);
    },
    configurable: true,
    writable: true,
  });
  try {
    fn();
  } finally {
    if (own === undefined) delete (backend as { alloc?: unknown }).alloc;
    else Object.defineProperty(backend, "alloc", own);
  }
  return count;
}
