import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { assertClose, checkGrad, Host, randomPair, rng, values, weightedSum } from "./_host.ts";

interface PoolHost {
  k: [number, number];
  s: [number, number];
  p: [number, number];
  d: [number, number];
  ceil: boolean;
  includePad: boolean;
  divisor?: number;
}

/** PyTorch's pooling output size along one axis. */
function outSize(size: number, k: number, s: number, p: number, d: number, ceil: boolean): number {
  const room = size + 2 * p - d * (k - 1) - 1;
  let out = (ceil ? Math.ceil(room / s) : Math.floor(room / s)) + 1;
  if (ceil && (out - 1) * s >= size + p) out--;
  return out;
}

/** Max or average pooling of [N, C, H, W] on the host, window by window, as PyTorch's CPU loops. */
function poolHost(x: Host, kind: "max" | "avg", o: PoolHost): Host {
  const [n, c, h, w] = x.shape as [number, number, number, number];
  const oh = outSize(h, o.k[0], o.s[0], o.p[0], o.d[0], o.ceil),
    ow = outSize(w, o.k[1], o.s[1], o.p[1], o.d[1], o.ceil);
  const out = Host.zeros([n, c, oh, ow]);
  for (let i = 0; i < n; i++) {
    for (let ch = 0; ch < c; ch++) {
      for (let y = 0; y < oh; y++) {
        for (let z = 0; z < ow; z++) {
          const h0 = y * o.s[0] - o.p[0], w0 = z * o.s[1] - o.p[1];
          let best = -Infinity, sum = 0, inside = 0;
          for (let a = 0; a < o.k[0]; a++) {
            for (let e = 0; e < o.k[1]; e++) {
              const r = h0 + a * o.d[0], t = w0 + e * o.d[1];
              if (r < 0 || r >= h || t < 0 || t >= w) continue;
              const v = x.get(i, ch, r, t);
              best = Math.max(best, v);
              sum += v;
              inside++;
            }
          }
          // PyTorch's divisor: the window clipped to the padded input (count_include_pad), else to the input.
          const hEnd = Math.min(h0 + o.k[0], h + o.p[0]), wEnd = Math.min(w0 + o.k[1], w + o.p[1]);
          const padded = (hEnd - h0) * (wEnd - w0);
          const divisor = o.divisor ?? (o.includePad ? padded : inside);
          out.set(kind === "max" ? best : sum / divisor, i, ch, y, z);
        }
      }
    }
  }
  return out;
}

const opts = (o: Partial<PoolHost> & { k: [number, number] }): PoolHost => ({
  s: o.k,
  p: [0, 0],
  d: [1, 1],
  ceil: false,
  includePad: true,
  ...o,
});

eachBackend(
  "maxPool2d() and avgPool2d() match PyTorch's window rules on the host: stride, padding, dilation, ceilMode, divisors",
  () => {
    const random = rng(18);
    const [x, hx] = randomPair([2, 3, 7, 6], random);
    const maxCases: [nn.MaxPool2dOptions, PoolHost, number | [number, number]][] = [
      [{}, opts({ k: [2, 2] }), 2],
      [{ stride: 2, padding: 1 }, opts({ k: [3, 3], s: [2, 2], p: [1, 1] }), 3],
      [{ stride: [1, 2], dilation: [2, 1] }, opts({ k: [2, 3], s: [1, 2], d: [2, 1] }), [2, 3]],
      [{ ceilMode: true }, opts({ k: [2, 4], ceil: true }), [2, 4]],
      [{ stride: 2, padding: 1, ceilMode: true }, opts({ k: [3, 3], s: [2, 2], p: [1, 1], ceil: true }), 3],
    ];
    for (const [o, h, k] of maxCases) {
      assertClose(nn.maxPool2d(x, k, o), poolHost(hx, "max", h), 0, `maxPool2d ${JSON.stringify(o)} k ${k}`);
    }
    const avgCases: [nn.AvgPool2dOptions, PoolHost, number | [number, number]][] = [
      [{}, opts({ k: [2, 2] }), 2],
      [{ stride: 2, padding: 1 }, opts({ k: [3, 3], s: [2, 2], p: [1, 1] }), 3],
      [
        { stride: 2, padding: 1, countIncludePad: false },
        opts({ k: [3, 3], s: [2, 2], p: [1, 1], includePad: false }),
        3,
      ],
      [{ stride: 2, padding: 1, ceilMode: true }, opts({ k: [3, 2], s: [2, 2], p: [1, 1], ceil: true }), [
        3,
        2,
      ]],
      [{ ceilMode: true, countIncludePad: false }, opts({ k: [2, 4], ceil: true, includePad: false }), [
        2,
        4,
      ]],
      [{ padding: 1, divisorOverride: 5 }, opts({ k: [3, 3], p: [1, 1], divisor: 5 }), 3],
    ];
    for (const [o, h, k] of avgCases) {
      assertClose(
        nn.avgPool2d(x, k, o),
        poolHost(hx, "avg", h),
        1e-14,
        `avgPool2d ${JSON.stringify(o)} k ${k}`,
      );
    }
    // Unbatched, and a 1×1 window returns an array of its own.
    const one = nn.maxPool2d(x.slice(0), 1);
    assertClose(one, new Host([3, 7, 6], hx.data.slice(0, 126)), 0, "maxPool2d 1×1 of [C, H, W]");
    one.fill(0);
    assert.notEqual(values(x)[0], 0);
  },
);

eachBackend("adaptiveAvgPool2d() averages PyTorch's adaptive windows", () => {
  const random = rng(19);
  const [x, hx] = randomPair([2, 3, 7, 5], random);
  for (const size of [[3, 2], [7, 5], [1, 1], [4, null]] as const) {
    const [oh, ow] = [size[0], size[1] ?? 5];
    const want = Host.zeros([2, 3, oh, ow]);
    for (let i = 0; i < 2; i++) {
      for (let c = 0; c < 3; c++) {
        for (let y = 0; y < oh; y++) {
          for (let z = 0; z < ow; z++) {
            const h0 = Math.floor((y * 7) / oh), h1 = Math.ceil(((y + 1) * 7) / oh);
            const w0 = Math.floor((z * 5) / ow), w1 = Math.ceil(((z + 1) * 5) / ow);
            let s = 0;
            for (let r = h0; r < h1; r++) for (let t = w0; t < w1; t++) s += hx.get(i, c, r, t);
            want.set(s / ((h1 - h0) * (w1 - w0)), i, c, y, z);
          }
        }
      }
    }
    assertClose(nn.adaptiveAvgPool2d(x, size), want, 1e-14, `adaptiveAvgPool2d ${JSON.stringify(size)}`);
  }
  assert.deepEqual(nn.adaptiveAvgPool2d(x, 2).shape, [2, 3, 2, 2]);
});

eachBackend(
  "gradients of the pools match central finite differences; maxPool2d's goes to the first maximum",
  () => {
    const random = rng(20);
    const [x] = randomPair([2, 2, 6, 5], random);
    const cases: [string, (x: ga.GPUArray) => ga.GPUArray][] = [
      ["maxPool2d", (x) => nn.maxPool2d(x, 3, { stride: 2, padding: 1, ceilMode: true })],
      ["avgPool2d", (x) => nn.avgPool2d(x, [2, 3], { stride: 1, padding: 1, countIncludePad: false })],
      ["adaptiveAvgPool2d", (x) => nn.adaptiveAvgPool2d(x, [4, 3])],
    ];
    for (const [name, f] of cases) {
      const [r] = randomPair(f(x).shape, random);
      checkGrad((x) => weightedSum(f(x), r), [x], [0], random, name);
    }
    // A tie: the window [1, 1] sends its gradient to its first element only, as PyTorch.
    const tie = ga.asarray([[[[1, 1], [0, 1]]]], "float64");
    const g = ga.grad((x: ga.GPUArray) => ga.sum(nn.maxPool2d(x, 2), [0, 1, 2, 3]))(tie);
    assert.deepEqual(values(g), [1, 0, 0, 0]);
  },
);

eachBackend(
  "maxPool2d() over side-by-side windows (its own kernels): float32 with NaN and leftover rows, first-maximum gradients, second derivatives",
  () => {
    const random = rng(21);
    const [x, hx] = randomPair([2, 3, 7, 8], random);
    const data = Float64Array.from(hx.data);
    data[5] = NaN; // row 0, column 5 of the first plane: its 2×2 window's maximum
    const x32 = ga.asarray(Float32Array.from(data)).reshape([2, 3, 7, 8]);
    const want = poolHost(
      new Host([2, 3, 7, 8], Float64Array.from(x32.astype("float64").get() as Float64Array)),
      "max",
      opts({ k: [2, 2] }),
    );
    want.data[2] = NaN;
    assertClose(nn.maxPool2d(x32, 2), want, 0, "float32, 2×2");
    assertClose(
      nn.maxPool2d(x, [3, 4]),
      poolHost(hx, "max", opts({ k: [3, 4] })),
      0,
      "float64, 3×4, leftover row",
    );
    // Gradients: to the first maximum of each window; the leftover row and a tie's later elements get none.
    const tie = ga.asarray([[[[2, 2, 0], [2, 1, 5], [9, 9, 9]]]], "float64");
    const g = ga.grad((x: ga.GPUArray) => ga.sum(nn.maxPool2d(x, 2), [0, 1, 2, 3]))(tie);
    assert.deepEqual(values(g), [1, 0, 0, 0, 0, 0, 0, 0, 0]);
    const [r] = randomPair([2, 3, 3, 4], random), [r2] = randomPair(x.shape, random);
    checkGrad((x) => weightedSum(nn.maxPool2d(x, 2), r), [x], [0], random, "maxPool2d 2×2");
    // The input's gradient is linear in the output's: differentiate it with respect to that.
    const inputGrad = (r: ga.GPUArray) => ga.grad((x: ga.GPUArray) => weightedSum(nn.maxPool2d(x, 2), r))(x);
    checkGrad((r) => weightedSum(inputGrad(r), r2), [r], [0], random, "maxPool2d's gradient");
  },
);

eachBackend("pools name the shape and the parameter that do not fit", () => {
  const x = ga.zeros([1, 2, 4, 4]);
  assert.throws(
    () => nn.maxPool2d(ga.zeros([4, 4]), 2),
    /maxPool2d an input of shape \[4, 4\]: it must be \[N, C, H, W\]/,
  );
  assert.throws(
    () => nn.maxPool2d(x, 2, { padding: 2 }),
    /padding 2 and kernelSize 2: the padding must be at most half the kernel/,
  );
  assert.throws(() => nn.avgPool2d(x, 5), /kernelSize 5: the window is larger than the padded input/);
  assert.throws(() => nn.avgPool2d(x, 2, { divisorOverride: 0 }), /divisorOverride 0/);
  assert.throws(
    () => nn.maxPool2d(x, [2, 2, 2]),
    /kernelSize \[2,2,2\]: give an integer of 1 or more, or 2 of them/,
  );
  assert.throws(() => nn.adaptiveAvgPool2d(x, [0, 2]), /outputSize \[0,2\]/);
});
