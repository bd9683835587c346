import assert from "node:assert/strict";
import * as ga from "../../src/array/mod.ts";
import * as nn from "../../src/nn/mod.ts";
import { eachBackend } from "../array/_each_backend.ts";
import { cudaTest } from "../_backends.ts";
import { assertClose, checkGrad, Host, randomPair, rng, weightedSum } from "./_host.ts";

interface Geometry {
  stride: [number, number];
  pad: [[number, number], [number, number]];
  dilation: [number, number];
  groups: number;
}

/** A direct float64 convolution (cross-correlation) of [N, C, H, W] by [O, C/g, kH, kW]. */
function convHost(x: Host, w: Host, b: number[] | undefined, g: Geometry): Host {
  const [n, c, h, wd] = x.shape as [number, number, number, number];
  const [o, cg, kh, kw] = w.shape as [number, number, number, number];
  const og = o / g.groups;
  const oh = Math.floor((h + g.pad[0][0] + g.pad[0][1] - g.dilation[0] * (kh - 1) - 1) / g.stride[0]) + 1;
  const ow = Math.floor((wd + g.pad[1][0] + g.pad[1][1] - g.dilation[1] * (kw - 1) - 1) / g.stride[1]) + 1;
  const out = Host.zeros([n, o, oh, ow]);
  for (let i = 0; i < n; i++) {
    for (let q = 0; q < o; q++) {
      const group = Math.floor(q / og);
      for (let y = 0; y < oh; y++) {
        for (let z = 0; z < ow; z++) {
          let s = b?.[q] ?? 0;
          for (let ci = 0; ci < cg; ci++) {
            for (let a = 0; a < kh; a++) {
              for (let e = 0; e < kw; e++) {
                const r = y * g.stride[0] - g.pad[0][0] + a * g.dilation[0];
                const t = z * g.stride[1] - g.pad[1][0] + e * g.dilation[1];
                if (r < 0 || r >= h || t < 0 || t >= wd) continue;
                s += x.get(i, group * cg + ci, r, t) * w.get(q, ci, a, e);
              }
            }
          }
          out.set(s, i, q, y, z);
        }
      }
    }
  }
  assert.ok(c === cg * g.groups);
  return out;
}

const geometry = (o: Partial<Geometry>): Geometry => ({
  stride: [1, 1],
  pad: [[0, 0], [0, 0]],
  dilation: [1, 1],
  groups: 1,
  ...o,
});

eachBackend(
  'conv2d() with stride, padding, "same", dilation and groups matches the direct float64 host convolution',
  () => {
    const random = rng(14);
    const [x, hx] = randomPair([2, 4, 7, 6], random);
    const cases: [string, number[], nn.ConvOptions, Geometry][] = [
      ["plain 3×3", [3, 4, 3, 3], {}, geometry({})],
      [
        "stride 2, padding 1",
        [3, 4, 3, 3],
        { stride: 2, padding: 1 },
        geometry({ stride: [2, 2], pad: [[1, 1], [1, 1]] }),
      ],
      ["stride [1, 2], padding [2, 0], dilation 2", [2, 4, 3, 2], {
        stride: [1, 2],
        padding: [2, 0],
        dilation: 2,
      }, geometry({ stride: [1, 2], pad: [[2, 2], [0, 0]], dilation: [2, 2] })],
      [
        "same, 4×3 kernel (odd total padding goes after)",
        [3, 4, 4, 3],
        { padding: "same" },
        geometry({ pad: [[1, 2], [1, 1]] }),
      ],
      ["valid, groups 2", [4, 2, 2, 3], { padding: "valid", groups: 2 }, geometry({ groups: 2 })],
      [
        "depthwise, same, dilation [2, 1]",
        [4, 1, 3, 3],
        { padding: "same", groups: 4, dilation: [2, 1] },
        geometry({ groups: 4, dilation: [2, 1], pad: [[2, 2], [1, 1]] }),
      ],
    ];
    for (const [name, ws, opts, g] of cases) {
      const [w, hw] = randomPair(ws, random);
      const [b, hb] = randomPair([ws[0]!], random);
      assertClose(
        nn.conv2d(x, w, b, opts),
        convHost(hx, hw, Array.from(hb.data), g),
        1e-13,
        `conv2d ${name}`,
      );
    }
    // Unbatched [C, H, W].
    const [w, hw] = randomPair([3, 4, 3, 3], random);
    const single = new Host([1, 4, 7, 6], hx.data.slice(0, 4 * 7 * 6));
    const want = convHost(single, hw, undefined, geometry({}));
    assertClose(
      nn.conv2d(x.slice(0), w),
      new Host(want.shape.slice(1), want.data),
      1e-13,
      "conv2d of [C, H, W]",
    );
  },
);

eachBackend("conv1d() matches the host convolution along one axis", () => {
  const random = rng(15);
  const [x, hx] = randomPair([2, 3, 9], random);
  const [w, hw] = randomPair([4, 3, 3], random);
  const [b, hb] = randomPair([4], random);
  const as2d = (h: Host) => new Host([h.shape[0]!, h.shape[1]!, 1, h.shape[2]!], h.data);
  const want = convHost(
    as2d(hx),
    as2d(hw),
    Array.from(hb.data),
    geometry({ stride: [1, 2], pad: [[0, 0], [2, 2]], dilation: [1, 2] }),
  );
  const got = nn.conv1d(x, w, b, { stride: 2, padding: 2, dilation: 2 });
  assertClose(got, new Host([2, 4, want.shape[3]!], want.data), 1e-13, "conv1d");
});

/** A direct float64 transposed convolution: each input element scatters its kernel-weighted copy. */
function convTransposeHost(
  x: Host,
  w: Host,
  s: number[],
  p: number[],
  op: number[],
  d: number[],
  groups: number,
): Host {
  const [n, c, h, wd] = x.shape as [number, number, number, number];
  const [, og, kh, kw] = w.shape as [number, number, number, number];
  const cg = c / groups;
  const oh = (h - 1) * s[0]! - 2 * p[0]! + d[0]! * (kh - 1) + op[0]! + 1;
  const ow = (wd - 1) * s[1]! - 2 * p[1]! + d[1]! * (kw - 1) + op[1]! + 1;
  const out = Host.zeros([n, og * groups, oh, ow]);
  for (let i = 0; i < n; i++) {
    for (let ci = 0; ci < c; ci++) {
      const g = Math.floor(ci / cg);
      for (let y = 0; y < h; y++) {
        for (let z = 0; z < wd; z++) {
          for (let o = 0; o < og; o++) {
            for (let a = 0; a < kh; a++) {
              for (let e = 0; e < kw; e++) {
                const r = y * s[0]! - p[0]! + a * d[0]!, t = z * s[1]! - p[1]! + e * d[1]!;
                if (r < 0 || r >= oh || t < 0 || t >= ow) continue;
                const q = g * og + o;
                out.set(out.get(i, q, r, t) + x.get(i, ci, y, z) * w.get(ci, o, a, e), i, q, r, t);
              }
            }
          }
        }
      }
    }
  }
  return out;
}

eachBackend(
  "convTranspose2d() matches the direct float64 host scatter, with stride, padding, outputPadding, dilation, groups",
  () => {
    const random = rng(16);
    const [x, hx] = randomPair([2, 4, 3, 4], random);
    const cases: [string, number[], nn.ConvTransposeOptions, number[][], number][] = [
      ["plain", [4, 3, 3, 3], {}, [[1, 1], [0, 0], [0, 0], [1, 1]], 1],
      ["stride 2, padding 1, outputPadding 1", [4, 2, 3, 3], { stride: 2, padding: 1, outputPadding: 1 }, [
        [2, 2],
        [1, 1],
        [1, 1],
        [1, 1],
      ], 1],
      ["stride [3, 2], dilation 2, groups 2", [4, 1, 2, 3], { stride: [3, 2], dilation: 2, groups: 2 }, [
        [3, 2],
        [0, 0],
        [0, 0],
        [2, 2],
      ], 2],
      ["padding beyond the kernel's reach (a crop)", [4, 2, 2, 2], { padding: [2, 1], stride: 3 }, [
        [3, 3],
        [2, 1],
        [0, 0],
        [1, 1],
      ], 1],
    ];
    for (const [name, ws, opts, [s, p, op, d], groups] of cases) {
      const [w, hw] = randomPair(ws, random);
      const [b, hb] = randomPair([ws[1]! * groups], random);
      const want = convTransposeHost(hx, hw, s!, p!, op!, d!, groups);
      const withBias = new Host(
        want.shape,
        want.data.map((v, i) =>
          v + hb.data[Math.floor(i / (want.shape[2]! * want.shape[3]!)) % want.shape[1]!]!
        ),
      );
      assertClose(nn.convTranspose2d(x, w, b, opts), withBias, 1e-13, `convTranspose2d ${name}`);
    }
  },
);

eachBackend("gradients of conv1d(), conv2d() and convTranspose2d() match central finite differences", () => {
  const random = rng(17);
  const [x] = randomPair([2, 4, 5, 5], random);
  const [w] = randomPair([4, 2, 3, 3], random), [b] = randomPair([4], random);
  const y = nn.conv2d(x, w, b, { stride: 2, padding: "valid", groups: 2, dilation: [1, 2] });
  const [r] = randomPair(y.shape, random);
  checkGrad(
    (x, w, b) => weightedSum(nn.conv2d(x, w, b, { stride: 2, groups: 2, dilation: [1, 2] }), r),
    [x, w, b],
    [0, 1, 2],
    random,
    "conv2d",
  );
  const [r2] = randomPair([2, 4, 5, 5], random);
  checkGrad(
    (x, w) => weightedSum(nn.conv2d(x, w, null, { padding: "same", groups: 2 }), r2),
    [x, w],
    [0, 1],
    random,
    "conv2d same",
  );
  const [x1] = randomPair([2, 3, 8], random), [w1] = randomPair([2, 3, 3], random);
  const [r1] = randomPair(nn.conv1d(x1, w1, null, { stride: 2, padding: 1 }).shape, random);
  checkGrad(
    (x, w) => weightedSum(nn.conv1d(x, w, null, { stride: 2, padding: 1 }), r1),
    [x1, w1],
    [0, 1],
    random,
    "conv1d",
  );
  const [wt] = randomPair([4, 3, 3, 3], random), [bt] = randomPair([3], random);
  const opts = { stride: 2, padding: 1, outputPadding: 1 };
  const [rt] = randomPair(nn.convTranspose2d(x, wt, bt, opts).shape, random);
  checkGrad(
    (x, w, b) => weightedSum(nn.convTranspose2d(x, w, b, opts), rt),
    [x, wt, bt],
    [0, 1, 2],
    random,
    "convTranspose2d",
  );
});

cudaTest(
  "conv2d() on cuDNN in float32 (TF32 off), float16 and bfloat16 matches the float64 host convolution",
  () => {
    ga.useBackend("cuda");
    assert.ok(nn.cudnn.isAvailable(), `cuDNN does not load here: ${nn.cudnn.problem()}`);
    assert.match(ga.zeros(1).backend.dnn!.name, /^cuDNN 9\.\d+\.\d+$/);
    const random = rng(18);
    const [x, hx] = randomPair([4, 6, 9, 8], random);
    const [w, hw] = randomPair([8, 3, 3, 3], random);
    const want = convHost(hx, hw, undefined, geometry({ groups: 2, stride: [2, 1], pad: [[1, 1], [1, 1]] }));
    const opts = { groups: 2, stride: [2, 1], padding: 1 };
    nn.cudnn.allowTf32 = false;
    try {
      assertClose(nn.conv2d(x.astype("float32"), w.astype("float32"), null, opts), want, 1e-5, "float32");
    } finally {
      nn.cudnn.allowTf32 = true;
    }
    for (const [dtype, tol] of [["float16", 1e-2], ["bfloat16", 6e-2]] as const) {
      assertClose(nn.conv2d(x.astype(dtype), w.astype(dtype), null, opts), want, tol, dtype);
    }
  },
);

cudaTest("second derivatives through cuDNN's convolution gradients match central finite differences", () => {
  ga.useBackend("cuda");
  const random = rng(19);
  const [x] = randomPair([2, 4, 6, 5], random), [w] = randomPair([6, 2, 3, 2], random);
  const opts = { stride: [1, 2], padding: "same" as const, groups: 2, dilation: [2, 1] };
  const opts2 = { stride: [1, 2], padding: [2, 1], groups: 2, dilation: [2, 1] };
  const [r] = randomPair(nn.conv2d(x, w, null, opts2).shape, random);
  const [rx] = randomPair(x.shape, random), [rw] = randomPair(w.shape, random);
  // d/dx of the weighted sum is the input gradient (cuDNN's backward data), a function of w;
  // d/dw is the weight gradient (backward filter), a function of x: differentiate each once more.
  const inputGrad = (x: ga.GPUArray, w: ga.GPUArray) =>
    ga.grad((x: ga.GPUArray) => weightedSum(nn.conv2d(x, w, null, opts2), r))(x);
  const weightGrad = (x: ga.GPUArray, w: ga.GPUArray) =>
    ga.grad((w: ga.GPUArray) => weightedSum(nn.conv2d(x, w, null, opts2), r))(w);
  checkGrad((x, w) => weightedSum(inputGrad(x, w), rx), [x, w], [1], random, "d/dw of the input gradient");
  checkGrad((x, w) => weightedSum(weightGrad(x, w), rw), [x, w], [0], random, "d/dx of the weight gradient");
  // And through a "same" padding (padded first on one side) with a bias.
  const [b] = randomPair([6], random);
  const [rs] = randomPair(nn.conv2d(x, w, b, { ...opts, stride: 1 }).shape, random);
  checkGrad(
    (x, w, b) => weightedSum(nn.conv2d(x, w, b, { ...opts, stride: 1 }), rs),
    [x, w, b],
    [0, 1, 2],
    random,
    "conv2d same on cuDNN",
  );
});

cudaTest(
  "without cuDNN, nn.cudnn.problem() names the library and the path tried, and conv2d() still runs",
  async () => {
    const program = `
    import * as ga from "${new URL("../../src/array/mod.ts", import.meta.url).href}";
    import * as nn from "${new URL("../../src/nn/mod.ts", import.meta.url).href}";
    ga.useBackend("cuda");
    console.log(nn.cudnn.isAvailable(), ga.zeros(1).backend.dnn === undefined);
    console.log(nn.cudnn.problem());
    console.log(nn.conv2d(ga.ones([1, 2, 3, 3]), ga.ones([1, 2, 3, 3]), null, { padding: 1 }).get().join(","));
  `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", program],
      env: { CUDENO_LIBCUDNN: "/nowhere/libcudnn.so.9", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.match(text, /^false true$/m);
    assert.match(text, /Cannot load cuDNN \(libcudnn\.so\.9\)[^]*\/nowhere\/libcudnn\.so\.9/);
    assert.match(text, /^8,12,8,12,18,12,8,12,8$/m);
  },
);

eachBackend("convolutions name the shapes and the parameter that do not fit", () => {
  const x = ga.zeros([1, 4, 5, 5]);
  assert.throws(
    () => nn.conv2d(x, ga.zeros([2, 3, 3, 3])),
    /input of shape \[1, 4, 5, 5\] with weight of shape \[2, 3, 3, 3\]: the weight's second extent must be inChannels \/ groups = 4/,
  );
  assert.throws(
    () => nn.conv2d(x, ga.zeros([3, 2, 3, 3]), null, { groups: 2 }),
    /groups 2: the input's 4 channels and the weight's 3 output channels/,
  );
  assert.throws(
    () => nn.conv2d(x, ga.zeros([2, 4, 3, 3]), null, { padding: "same", stride: 2 }),
    /"same" needs stride 1/,
  );
  assert.throws(() => nn.conv2d(x, ga.zeros([2, 4, 7, 7])), /the padded input is smaller than the kernel/);
  assert.throws(
    () => nn.conv2d(ga.zeros([4, 5]), ga.zeros([2, 4, 3, 3])),
    /input of shape \[4, 5\]: it must be \[N, C, H, W\]/,
  );
  assert.throws(
    () => nn.conv2d(x, ga.zeros([2, 4, 3, 3]), ga.zeros([3])),
    /bias has shape \[3\]; it must be \[2\]/,
  );
  assert.throws(
    () => nn.conv2d(x, ga.zeros([2, 4, 3, 3]), null, { stride: [1, 0] }),
    /stride \[1,0\]: give an integer of 1 or more, or 2 of them/,
  );
  assert.throws(
    () => nn.convTranspose2d(x, ga.zeros([4, 2, 3, 3]), null, { outputPadding: 1 }),
    /outputPadding 1: it must be below the stride or the dilation/,
  );
  assert.throws(
    () => nn.convTranspose2d(x, ga.zeros([3, 2, 3, 3])),
    /the input's 4 channels must be the weight's first extent/,
  );
});
