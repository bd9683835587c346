/**
 * Differential tests of sorting and searching (array-api.md "Sorting"): random views, axes, ties,
 * NaN and -0.0, and the patterns sorts get wrong (sorted, reversed, all equal, NaN-laden, sizes 0
 * to 2^20), against the host reference's stable sort.
 */

import type { DType } from "../../src/kernel/dtype.ts";
import { cast, kind, type Value } from "./_reference_dtype.ts";
import { compare } from "./_reference_sort.ts";
import {
  ALL_DTYPES,
  type Input,
  randomInput,
  randomShape,
  randomValues,
  type Rng,
  type ValueOptions,
} from "./_cases.ts";
import { Arg, type Case, differential, type OpSpec } from "./_differential.ts";

const lone = ALL_DTYPES.map((d) => [d]);
const fn: OpSpec["forms"] = ["function"];

/** Values with many ties: a narrow range half the time, with NaN, ±inf and -0.0 among floats. */
const tied = (rng: Rng, d: DType): ValueOptions =>
  rng.chance(0.5) ? { range: kind(d) === "uint" || d === "bool" ? [0, 3] : [-3, 3] } : {};

function sortCase(rng: Rng, [d]: readonly DType[]): Case {
  const shape = randomShape(rng, { minRank: 1, maxSize: 300 });
  const input = randomInput(rng, d!, shape, tied(rng, d!));
  const r = rng.next();
  const options = r < 0.3 ? [] : [{ axis: r < 0.4 ? null : rng.int(-shape.length, shape.length - 1) }];
  return { inputs: [input], args: [new Arg(0), ...options] };
}

function uniqueCase(rng: Rng, [d]: readonly DType[]): Case {
  const input = randomInput(rng, d!, randomShape(rng, { maxSize: 200 }), tied(rng, d!));
  const options = rng.chance(0.3) ? [] : [{ returnCounts: rng.chance(0.5), returnInverse: rng.chance(0.5) }];
  return { inputs: [input], args: [new Arg(0), ...options] };
}

/** A sorted 1-D array (NaN last), seen through a random view, and values to look up in it. */
function searchCase(rng: Rng, [d]: readonly DType[]): Case {
  const n = rng.int(0, 40), values = randomValues(rng, d!, n, tied(rng, d!)).sort(compare);
  const flipped = rng.chance(0.3);
  const sorted: Input = {
    dtype: d!,
    shape: [n],
    values: flipped ? values.reverse() : values,
    steps: flipped ? [{ method: "flip", args: [] }] : [],
  };
  const lookup = randomInput(rng, d!, randomShape(rng, { maxRank: 3, maxSize: 60 }), tied(rng, d!));
  const options = rng.chance(0.3) ? [] : [{ side: rng.pick(["left", "right"]) }];
  return { inputs: [sorted, lookup], args: [new Arg(0), new Arg(1), ...options] };
}

function topkCase(rng: Rng, [d]: readonly DType[]): Case {
  const shape = randomShape(rng, { minRank: 1, maxSize: 300 });
  const input = randomInput(rng, d!, shape, { ...tied(rng, d!), specials: false }); // NaN's rank in topk is not in the contract
  const axis = rng.int(-shape.length, shape.length - 1), n = shape[axis < 0 ? axis + shape.length : axis]!;
  const o: Record<string, unknown> = {};
  if (axis !== -1 || rng.chance(0.5)) o.axis = axis;
  if (rng.chance(0.5)) o.largest = rng.chance(0.5);
  const k = rng.int(0, n);
  return { inputs: [input], args: Object.keys(o).length === 0 ? [new Arg(0), k] : [new Arg(0), k, o] };
}

differential("sorting: sort, argsort, unique, searchsorted and topk on random views", [
  { op: "sort", forms: fn, dtypes: lone, make: sortCase },
  { op: "argsort", forms: fn, dtypes: lone, make: sortCase },
  { op: "unique", forms: fn, dtypes: lone, make: uniqueCase },
  { op: "searchsorted", forms: fn, dtypes: lone, make: searchCase },
  { op: "topk", forms: fn, dtypes: lone, make: topkCase },
], { cases: 120 });

/** A 1-D array of one of the patterns sorts get wrong, of a size from 0 to 2^20 (large ones rarely). */
function patternCase(rng: Rng, [d]: readonly DType[]): Case {
  const n = rng.chance(0.1)
    ? 2 ** rng.int(16, 20)
    : rng.chance(0.5)
    ? rng.int(0, 64)
    : 2 ** rng.int(6, 14) + rng.int(-1, 1);
  const pattern = rng.pick(["random", "sorted", "reversed", "equal", "nan", "zeros", "runs"]);
  let values: Value[];
  const float = kind(d!) === "float";
  switch (pattern) {
    case "sorted":
    case "reversed":
      values = randomValues(rng, d!, n).sort(compare);
      if (pattern === "reversed") values.reverse();
      break;
    case "equal":
      values = new Array<Value>(n).fill(randomValues(rng, d!, 1)[0] ?? cast(0, d!));
      break;
    case "nan": // half NaN, where the dtype has NaN
      values = randomValues(rng, d!, n).map((v) => (float && rng.chance(0.5) ? NaN : v));
      break;
    case "zeros": // -0.0 and +0.0 interleaved: a stable sort keeps their order
      values = Array.from({ length: n }, () => cast(rng.pick([0, -0, 1, -1]), d!));
      break;
    case "runs":
      values = Array.from({ length: n }, (_, k) => cast(Math.floor(k / 7) % 5, d!));
      break;
    default:
      values = randomValues(rng, d!, n);
  }
  return { inputs: [{ dtype: d!, shape: [n], values, steps: [] }], args: [new Arg(0)] };
}

differential("sorting: sort and argsort of sorted, reversed, equal, NaN-laden and ±0 arrays up to 2^20", [
  { op: "sort", forms: fn, dtypes: lone, make: patternCase },
  { op: "argsort", forms: fn, dtypes: lone, make: patternCase },
], { cases: 40 });
