/**
 * Small kernels that pin down the JIT's JavaScript semantics where C would differ: wrapping i32
 * arithmetic, integer division by zero, `Math.round` and NaN in `min`/`max`, casts of large floats,
 * stores into narrow arrays, the old values atomics return. Each runs as one block and lists the
 * values its output arrays must hold, worked out by hand from JavaScript's rules, so the same
 * expectations hold for the simulator and for a GPU.
 *
 * @module
 */

import {
  atomicAdd,
  atomicCAS,
  atomicExch,
  atomicMax,
  atomicMin,
  atomicSub,
  f32,
  f64,
  type HostArray,
  i32,
  jit,
  type JitKernel,
  shared,
  syncthreads,
  threadIdx,
  u32,
} from "../../src/jit/mod.ts";

/** One edge-case kernel. */
export interface EdgeCase {
  /** What it checks. */
  readonly name: string;
  /** The kernel. */
  readonly kernel: JitKernel;
  /** Threads in its one block. */
  readonly threads: number;
  /** Fresh arguments in parameter order. */
  args(): (number | HostArray)[];
  /** The expected contents of output arguments, by argument index. */
  readonly expected: Readonly<Record<number, readonly number[]>>;
}

const fr = Math.fround;
const INT_MIN = -2147483648, INT_MAX = 2147483647;

export const EDGE_CASES: readonly EdgeCase[] = [
  {
    name: "i32 arithmetic wraps around 2^32",
    kernel: jit({ out: "i32[]", a: "i32", b: "i32", c: "i32", s: "i32" }, (out, a, b, c, s) => {
      out[0] = a + b;
      out[1] = a * 2;
      out[2] = c - b;
      out[3] = -c;
      out[4] = a * a;
      out[5] = b << 31;
      out[6] = (b << 31) >> 31;
      out[7] = b << s;
      out[8] = c >> s;
      let i: number = a;
      i++;
      out[9] = i;
      let j: number = c;
      j -= 1;
      out[10] = j;
    }, { name: "edge_wrap" }),
    threads: 1,
    args: () => [new Int32Array(11), INT_MAX, 1, INT_MIN, 33],
    expected: { 0: [INT_MIN, -2, INT_MAX, INT_MIN, 1, INT_MIN, -1, 2, -1073741824, INT_MIN, INT_MAX] },
  },
  {
    name: "integer division truncates, floors, and gives 0 for a zero divisor",
    kernel: jit(
      { out: "i32[]", a: "i32", b: "i32", z: "i32", m: "i32", c: "i32", u: "u32", v: "u32", w: "u32" },
      (out, a, b, z, m, c, u, v, w) => {
        out[0] = (a / b) | 0;
        out[1] = Math.floor(a / b);
        out[2] = a % b;
        out[3] = (a / z) | 0;
        out[4] = a % z;
        out[5] = (c / m) | 0;
        out[6] = c % m;
        out[7] = Math.floor(c / m);
        out[8] = Math.floor(a / z);
        out[9] = (a / 2) | 0;
        out[10] = a % 2;
        out[11] = Math.floor(b / m);
        out[12] = Math.floor((a + 2) / b);
        out[13] = i32((a / b) * 4);
        out[14] = (u / w) >>> 0;
        out[15] = (u / v) >>> 0;
        out[16] = u % w;
        out[17] = u % v;
        out[18] = (u / w) | 0;
      },
      { name: "edge_division" },
    ),
    threads: 1,
    args: () => [new Int32Array(19), -7, 2, 0, -1, INT_MIN, 4294967295, 0, 7],
    expected: {
      0: [-3, -4, -1, 0, 0, INT_MIN, 0, INT_MIN, 0, -3, -1, -2, -3, -14, 613566756, 0, 3, 0, 613566756],
    },
  },
  {
    name: "f32 operations round like Math.fround and literals adopt the float type",
    kernel: jit({ out: "f64[]", x: "f32", d: "f64", i: "i32" }, (out, x, d, i) => {
      out[0] = x * 0.1;
      out[1] = x * d;
      out[2] = x + 1e-9;
      out[3] = i * x;
      out[4] = i / 2;
      out[5] = x / 3;
      out[6] = Math.PI * x;
      out[7] = f64(x) * Math.PI;
    }, { name: "edge_f32" }),
    threads: 1,
    args: () => [new Float64Array(8), fr(1 / 3), 0.1, 16777217],
    expected: {
      0: [
        fr(fr(1 / 3) * fr(0.1)),
        fr(1 / 3) * 0.1,
        fr(1 / 3),
        fr(16777216 * fr(1 / 3)),
        8388608.5,
        fr(fr(1 / 3) / 3),
        fr(fr(Math.PI) * fr(1 / 3)),
        fr(1 / 3) * Math.PI,
      ],
    },
  },
  {
    name: "Math functions give JavaScript's results",
    kernel: jit(
      { out: "f32[]", io: "i32[]", x: "f32", y: "f32", nan: "f32", k: "i32" },
      (out, io, x, y, nan, k) => {
        out[0] = Math.round(x);
        out[1] = Math.round(y);
        out[2] = Math.round(f32(0.49999997));
        out[3] = Math.min(nan, 1);
        out[4] = Math.max(1, nan);
        out[5] = Math.floor(x);
        out[6] = Math.ceil(x);
        out[7] = Math.sqrt(y * 0 + 2);
        out[8] = Math.abs(x);
        out[9] = Math.hypot(y + 0.5, y + 1.5);
        out[10] = (y + 1.5) ** 2;
        out[11] = Math.max(x, y, 1);
        io[0] = Math.abs(k);
        io[1] = Math.min(k, 5);
        io[2] = Math.max(k, 5);
        io[3] = i32(Math.round(x));
      },
      { name: "edge_math" },
    ),
    threads: 1,
    args: () => [new Float32Array(12), new Int32Array(4), -2.5, 2.5, NaN, INT_MIN],
    expected: {
      0: [-2, 3, 0, NaN, NaN, -3, -2, fr(Math.SQRT2), 2.5, 5, 16, 2.5],
      1: [INT_MIN, INT_MIN, 5, -2],
    },
  },
  {
    name: "casts follow JavaScript's ToInt32, ToUint32 and fround",
    kernel: jit(
      { io: "i32[]", uo: "u32[]", fo: "f64[]", d: "f64", nan: "f64", big: "u32", neg: "i32" },
      (io, uo, fo, d, nan, big, neg) => {
        io[0] = i32(-d);
        io[1] = i32(d * 1e9);
        io[2] = i32(nan);
        io[3] = i32(big);
        io[4] = (d * 1e9) | 0;
        uo[0] = u32(-d);
        uo[1] = u32(d * 1e9);
        uo[2] = u32(neg);
        uo[3] = -d >>> 0;
        fo[0] = f32(d);
        fo[1] = big;
        fo[2] = f32(big);
      },
      { name: "edge_casts" },
    ),
    threads: 1,
    args: () => [new Int32Array(5), new Uint32Array(4), new Float64Array(3), 2.7, NaN, 4294967295, -1],
    expected: {
      0: [-2, (2.7 * 1e9) | 0, 0, -1, (2.7 * 1e9) | 0],
      1: [4294967294, 2700000000, 4294967295, 4294967294],
      2: [fr(2.7), 4294967295, 4294967296],
    },
  },
  {
    name: "bit operators work on i32 and >>> gives u32",
    kernel: jit(
      { io: "i32[]", uo: "u32[]", u: "u32", m: "i32", s: "i32", x: "f32" },
      (io, uo, u, m, s, x) => {
        io[0] = u & 0xff;
        io[1] = u | 0;
        io[2] = ~u;
        io[3] = u ^ m;
        io[4] = x | 0;
        io[5] = m << s;
        io[6] = 0xffffffff & m;
        uo[0] = m >>> 28;
        uo[1] = u >>> s;
        uo[2] = m >>> 0;
      },
      { name: "edge_bits" },
    ),
    threads: 1,
    args: () => [new Int32Array(7), new Uint32Array(3), 0xf0f0f0f0, -1, 35, -3.75],
    expected: {
      0: [0xf0, 0xf0f0f0f0 | 0, 0x0f0f0f0f, 0x0f0f0f0f, -3, -8, -1],
      1: [15, 0xf0f0f0f0 >>> 3, 4294967295],
    },
  },
  {
    name: "stores into narrow arrays wrap as typed arrays do",
    kernel: jit({ b: "u8[]", c: "i8[]", h: "u16[]", g: "i16[]", v: "i32" }, (b, c, h, g, v) => {
      b[0] = v;
      b[1] += 1;
      c[0] = v - 100;
      c[1] -= 1;
      h[0] = -1;
      g[0] = v * 200;
      h[1] = b[1] + c[0];
    }, { name: "edge_narrow" }),
    threads: 1,
    args: () => [Uint8Array.of(0, 255), Int8Array.of(0, -128), new Uint16Array(2), new Int16Array(1), 300],
    expected: { 0: [44, 0], 1: [-56, 127], 2: [65535, 65480], 3: [-5536] },
  },
  {
    name: "atomics return the old element",
    kernel: jit({ i: "i32[]", u: "u32[]", f: "f32[]", old: "i32[]", fold: "f32[]" }, (i, u, f, old, fold) => {
      old[0] = atomicAdd(i, 0, 5);
      old[1] = atomicSub(i, 1, 3);
      old[2] = atomicMax(i, 2, 7);
      old[3] = atomicMin(i, 3, -9);
      old[4] = atomicExch(i, 4, 42);
      old[5] = atomicCAS(i, 5, 6, 60);
      old[6] = atomicCAS(i, 6, 1, 70);
      old[7] = atomicSub(u, 0, 1);
      old[8] = atomicMax(u, 1, 3000000000);
      fold[0] = atomicAdd(f, 0, 0.25);
      fold[1] = atomicSub(f, 1, 0.5);
      fold[2] = atomicExch(f, 2, -3);
    }, { name: "edge_atomics" }),
    threads: 1,
    args: () => [
      Int32Array.of(10, 1, 4, 0, 8, 6, 2),
      Uint32Array.of(0, 5),
      Float32Array.of(1.5, 1, 2),
      new Int32Array(9),
      new Float32Array(3),
    ],
    expected: {
      0: [15, -2, 7, -9, 42, 60, 2],
      1: [4294967295, 3000000000],
      2: [1.75, 0.5, -3],
      3: [10, 1, 4, 0, 8, 6, 2, 0, 5],
      4: [1.5, 1, 2],
    },
  },
  {
    name: "atomics on shared arrays combine every thread of the block",
    kernel: jit({ out: "f32[]", io: "i32[]" }, (out, io) => {
      const sum = shared.array("f32", 1);
      const top = shared.array("i32", 1);
      const tid = threadIdx.x;
      if (tid === 0) {
        sum[0] = 0;
        top[0] = -1;
      }
      syncthreads();
      atomicAdd(sum, 0, 0.5);
      atomicMax(top, 0, tid);
      syncthreads();
      if (tid === 0) {
        out[0] = sum[0];
        io[0] = top[0];
      }
    }, { name: "edge_shared_atomics" }),
    threads: 64,
    args: () => [new Float32Array(1), new Int32Array(1)],
    expected: { 0: [32], 1: [63] },
  },
  {
    name: "conditions short-circuit and booleans stay booleans",
    kernel: jit({ a: "f32[]", out: "i32[]", n: "i32" }, (a, out, n) => {
      const i: number = n;
      const inside = i < n && a[i] > 0;
      out[0] = inside ? 1 : 0;
      let flag = false;
      for (let k = 0; k < n; k++) if (a[k] < 0) flag = true;
      out[1] = flag ? 1 : 2;
      out[2] = !flag || n > 100 ? 3 : 4;
      out[3] = n ? 5 : 6;
      out[4] = !n ? 7 : 8;
      const t = n > 2 ? 1.5 : 2;
      out[5] = i32(t * 2);
    }, { name: "edge_logic" }),
    threads: 1,
    args: () => [Float32Array.of(1, -2, 3, 4), new Int32Array(6), 4],
    expected: { 1: [0, 1, 4, 5, 8, 3] },
  },
  {
    name: "loops run, continue, break and count as in JavaScript",
    kernel: jit({ out: "i32[]", n: "i32" }, (out, n) => {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        if (i % 2 === 0) continue;
        if (i > 7) break;
        sum += i;
      }
      out[0] = sum;
      let k = 0;
      while (true) {
        k += 3;
        if (k > n) break;
      }
      out[1] = k;
      let d = 0;
      do {
        d++;
      } while (d < 0);
      out[2] = d;
      let p = 1;
      for (let i = 0, j = 10; i < j; i++, j--) p += j - i;
      out[3] = p;
      let q = 0;
      for (;;) {
        q++;
        if (q === 5) break;
      }
      out[4] = q;
      let r = 0;
      for (let i: number = n; i > 0; i -= 3) r++;
      out[5] = r;
    }, { name: "edge_loops" }),
    threads: 1,
    args: () => [new Int32Array(6), 20],
    expected: { 0: [16, 21, 1, 31, 5, 7] },
  },
  {
    name: "infinities, NaN and negative zero pass through",
    kernel: jit({ out: "f32[]", d: "f64[]" }, (out, d) => {
      out[0] = -Infinity;
      out[1] = f32(Infinity);
      out[2] = NaN;
      out[3] = -0.0;
      d[0] = -Infinity;
      d[1] = NaN;
      d[2] = f64(out[3]);
      d[3] = Math.max(d[3], Infinity);
    }, { name: "edge_special" }),
    threads: 1,
    args: () => [new Float32Array(4), new Float64Array(4)],
    expected: { 0: [-Infinity, Infinity, NaN, -0], 1: [-Infinity, NaN, -0, Infinity] },
  },
];
