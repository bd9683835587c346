/**
 * The host reference's shapes and indices: sizes, multi-indices in C order and their flat positions,
 * axes (negative from the end), NumPy's broadcasting of shapes, and the slices of `slice` (Python's
 * `slice.indices` and the string form `"1:3, ::2, None, ..., -1"`).
 */

/** A per-axis spec of `slice`: an index, `[start, stop, step?]`, `null` (a new axis) or `"..."`. */
export type SliceSpec = number | readonly (number | null | undefined)[] | null | "...";
/** A shape or a multi-index. */
export type Index = readonly number[];

// ---- shapes and indices -------------------------------------------------------------------------

/** The element count of a shape. */
export const sizeOf = (shape: Index): number => shape.reduce((a, b) => a * b, 1);

/** Every multi-index of a shape, in C order. */
export function indices(shape: Index): number[][] {
  let out: number[][] = [[]];
  for (const n of shape) {
    const next: number[][] = [];
    for (const p of out) for (let k = 0; k < n; k++) next.push([...p, k]);
    out = next;
  }
  return out;
}

/** The C-order position of a multi-index. */
export function ravelIndex(index: Index, shape: Index): number {
  let flat = 0;
  for (let k = 0; k < shape.length; k++) flat = flat * shape[k]! + index[k]!;
  return flat;
}

/** The multi-index of a C-order position. */
export function unravelIndex(flat: number, shape: Index): number[] {
  const out = new Array<number>(shape.length);
  for (let k = shape.length - 1; k >= 0; k--) {
    out[k] = flat % shape[k]!;
    flat = Math.floor(flat / shape[k]!);
  }
  return out;
}

/** Normalises an axis (negative from the end) or throws a RangeError. */
export function axisOf(axis: number, ndim: number, what = "use axis"): number {
  if (!Number.isInteger(axis) || axis < -ndim || axis >= ndim) {
    throw new RangeError(`Cannot ${what}: axis ${axis} is out of bounds for ${ndim} dimensions`);
  }
  return axis < 0 ? axis + ndim : axis;
}

/** Normalises a list of distinct axes. */
export function axesOf(axes: number | readonly number[], ndim: number, what = "use axes"): number[] {
  const out = (typeof axes === "number" ? [axes] : [...axes]).map((a) => axisOf(a, ndim, what));
  if (new Set(out).size !== out.length) throw new RangeError(`Cannot ${what}: repeated axis`);
  return out;
}

/** NumPy's broadcast shape, or a RangeError. */
export function broadcastShapes(...shapes: Index[]): number[] {
  const n = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(n).fill(1);
  for (const s of shapes) {
    for (let k = 0; k < s.length; k++) {
      const o = n - s.length + k, d = s[k]!;
      if (d !== 1 && out[o] !== 1 && out[o] !== d) {
        throw new RangeError(`Cannot broadcast shapes [${shapes.map((x) => x.join(", ")).join("] and [")}]`);
      }
      if (d !== 1) out[o] = d;
    }
  }
  return out;
}

/** Python's `slice(start, stop, step).indices(n)`: the first index, the step and the count. */
export function sliceRange(
  n: number,
  start: number | null | undefined,
  stop: number | null | undefined,
  step: number | null | undefined,
): { first: number; step: number; count: number } {
  const s = step ?? 1;
  if (s === 0) throw new RangeError("Cannot slice with step 0");
  const [lower, upper] = s > 0 ? [0, n] : [-1, n - 1];
  const norm = (v: number | null | undefined, dflt: number) =>
    v === null || v === undefined ? dflt : v < 0 ? Math.max(v + n, lower) : Math.min(v, upper);
  const a = norm(start, s > 0 ? lower : upper), b = norm(stop, s > 0 ? upper : lower);
  const count = s > 0 ? Math.max(0, Math.ceil((b - a) / s)) : Math.max(0, Math.ceil((a - b) / -s));
  return { first: a, step: s, count };
}

/** Parses the string form of `slice` (`"1:3, ::2, None, ..., -1"`). */
export function parseSlice(text: string): SliceSpec[] {
  const int = (t: string) => (t.trim() === "" ? null : Number.parseInt(t.trim(), 10));
  return text.split(",").map((part) => {
    const p = part.trim();
    if (p === "None") return null;
    if (p === "...") return "...";
    return p.includes(":") ? p.split(":").map(int) : Number.parseInt(p, 10);
  });
}
