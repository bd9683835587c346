/**
 * What the statistics routines share: an array seen as rows along one axis (NumPy's `axis=None`, one
 * axis or a tuple of axes, merged into one), the element of every row at one index (a view) or at an
 * index of its own (a gather), and the result's final shape (`keepdims`, a leading axis of quantiles).
 *
 * @module
 */

import type { DType } from "../../kernel/dtype.ts";
import { GPUArray } from "../core/gpuarray.ts";
import { normalizeAxes } from "../core/layout.ts";
import type { SliceSpec } from "../core/slicing.ts";
import { moveaxis, ravel, reshape, slice } from "../ops/views.ts";
import { gather } from "../ops/indexing.ts";

/** An array's elements as rows along one axis. */
export interface Along<D extends DType = DType> {
  /** The array (`a`, a view of it, or a copy) whose axis {@link ax} holds each row's elements. */
  readonly x: GPUArray<D>;
  /** The axis of {@link x} the rows lie along. */
  readonly ax: number;
  /** The shape of a result with `keepdims`: `a`'s, the reduced axes of extent 1. */
  readonly kept: readonly number[];
  /** Whether every axis is reduced (no axis was given). */
  readonly whole: boolean;
}

/**
 * `a` as rows along `axis`: undefined or null flattens it, a list of axes moves them last and merges
 * them into one (a copy where the layout needs one).
 *
 * @throws {RangeError} for an axis out of range or repeated.
 */
export function along<D extends DType>(
  a: GPUArray<D>,
  axis: number | readonly number[] | null | undefined,
  what: string,
): Along<D> {
  const axes = normalizeAxes(axis ?? undefined, a.ndim, what);
  const kept = a.shape.map((e, d) => (axes.includes(d) ? 1 : e));
  const whole = axis === undefined || axis === null;
  if (whole) return { x: ravel(a), ax: 0, kept, whole };
  if (axes.length === 1) return { x: a, ax: axes[0]!, kept, whole };
  const last = axes.map((_, k) => a.ndim - axes.length + k);
  const moved = moveaxis(a, axes, last);
  const rest = moved.shape.slice(0, a.ndim - axes.length);
  const n = axes.reduce((p, d) => p * a.shape[d]!, 1);
  return { x: reshape(moved, [...rest, n]), ax: rest.length, kept, whole };
}

/** The specs that select index `i` along axis `ax` of an array of `ndim` dimensions. */
export function at(
  ndim: number,
  ax: number,
  i: number | readonly [number | null, number | null],
): SliceSpec[] {
  return Array.from({ length: ndim }, (_, d) => (d === ax ? i : []));
}

/** Every row's element at index `i` along `ax` (a view, the axis dropped). */
export function pick<D extends DType>(s: GPUArray<D>, ax: number, i: number): GPUArray<D> {
  return slice(s, ...at(s.ndim, ax, i));
}

/**
 * Every row's element at its own index along `ax` (`idx`, an integer array of `s`'s shape without
 * that axis, each index in range): NumPy's `take_along_axis` with one index per row.
 */
export function pickEach<D extends DType>(
  s: GPUArray<D>,
  ax: number,
  idx: GPUArray,
  what: string,
): GPUArray<D> {
  const out = new GPUArray(s.backend, idx.shape, s.dtype);
  using source = pick(s, ax, 0);
  gather(out, source, [{ array: idx, step: s.strides[ax]! }], undefined, what);
  return out;
}

/**
 * The result of one value per row (`r`, the rows' shape), or of several stacked on a leading axis,
 * in its final shape: with `keepdims`, `kept` after the leading axes.
 */
export function shaped<D extends DType>(
  r: GPUArray<D>,
  lead: number,
  rows: Along,
  keepdims: boolean,
): GPUArray<D> {
  if (!keepdims) return r;
  return reshape(r, [...r.shape.slice(0, lead), ...rows.kept]);
}
