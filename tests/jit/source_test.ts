import assert from "node:assert/strict";
import { atomicAdd, type Dialect, grid, jit, shared, syncthreads, threadIdx } from "../../src/jit/mod.ts";

Deno.test("the kernel is named by options.name, else the function's name, else jit_kernel, sanitized", () => {
  const body = (a: Float32Array) => {
    a[0] = 1;
  };
  assert.equal(jit({ a: "f32[]" }, body as never, { name: "my-kernel" }).name, "my_kernel");
  assert.equal(jit({ a: "f32[]" }, body as never, { name: "float" }).name, "v_float");
  assert.equal(jit({ a: "f32[]" }, body as never, { name: "2d" }).name, "v_2d");
  assert.equal(jit({ a: "f32[]" }, body as never).name, "body");
  assert.equal(
    jit({ a: "f32[]" }, (a) => {
      a[0] = 1;
    }).name,
    "jit_kernel",
  );
  const k = jit({ a: "f32[]" }, function scale(a) {
    a[0] = 2;
  });
  assert.equal(k.name, "scale");
  assert.ok(k.source("cuda").startsWith('extern "C" __global__ void scale(float *a) {'));
  assert.ok(k.source("opencl").includes("__kernel void scale(__global float *a) {"));
});

Deno.test("kernel.params gives each parameter's C type and DType", () => {
  const k = jit(
    {
      a: "f32[]",
      b: "f64[]",
      c: "i32[]",
      d: "u32[]",
      e: "i8[]",
      f: "u8[]",
      g: "i16[]",
      h: "u16[]",
      n: "i32",
      u: "u32",
      x: "f32",
      y: "f64",
    },
    (a, b, c, d, e, f, g, h, n, u, x, y) => {
      a[0] = b[0] + c[0] + d[0] + e[0] + f[0] + g[0] + h[0] + n + u + x + y;
    },
    { name: "all" },
  );
  assert.deepEqual(k.params.map((p) => [p.name, p.type, p.dtype, p.array]), [
    ["a", "float *", "float32", true],
    ["b", "double *", "float64", true],
    ["c", "int *", "int32", true],
    ["d", "unsigned int *", "uint32", true],
    ["e", "signed char *", "int8", true],
    ["f", "unsigned char *", "uint8", true],
    ["g", "short *", "int16", true],
    ["h", "unsigned short *", "uint16", true],
    ["n", "int", "int32", false],
    ["u", "unsigned int", "uint32", false],
    ["x", "float", "float32", false],
    ["y", "double", "float64", false],
  ]);
  assert.ok(
    k.source("cuda").includes(
      "void all(float *a, double *b, int *c, unsigned int *d, signed char *e, unsigned char *f, short *g, " +
        "unsigned short *h, int n, unsigned int u, float x, double y)",
    ),
  );
  assert.ok(
    k.source("opencl").includes(
      "void all(__global float *a, __global double *b, __global int *c, __global uint *d, __global char *e, " +
        "__global uchar *f, __global short *g, __global ushort *h, int n, uint u, float x, double y)",
    ),
  );
});

Deno.test("OpenCL source turns off FP contraction, and enables fp64 only where doubles appear", () => {
  const single = jit({ a: "f32[]" }, (a) => {
    a[0] = a[1] * 2.5;
  });
  assert.ok(single.source("opencl").startsWith("#pragma OPENCL FP_CONTRACT OFF\n\n"));
  assert.ok(!single.source("opencl").includes("cl_khr_fp64"));
  assert.ok(single.source("cuda").includes("a[0] = a[1] * 2.5f;"));
  const double = jit({ a: "f32[]", i: "i32" }, (a, i) => {
    a[0] = i / 3;
  });
  assert.ok(double.source("opencl").includes("#pragma OPENCL EXTENSION cl_khr_fp64 : enable"));
  assert.ok(double.source("cuda").includes("a[0] = (float)((double)i / 3.0);"), double.source("cuda"));
});

Deno.test("shared arrays are declared at the top of the kernel, even when declared in a branch", () => {
  const k = jit({ a: "f32[]" }, (a) => {
    if (threadIdx.x < 4) {
      const tile = shared.array("f32", 4);
      tile[threadIdx.x] = a[threadIdx.x];
      a[threadIdx.x] = tile[3 - threadIdx.x];
    }
    syncthreads();
  });
  const opencl = k.source("opencl");
  assert.match(
    opencl,
    /__kernel void jit_kernel\(__global float \*a\) \{\n {2}__local float tile\[4\];\n {2}if/,
  );
  assert.match(k.source("cuda"), /\{\n {2}__shared__ float tile\[4\];\n {2}if/);
});

Deno.test("locals get C names that clash with no keyword, macro or other local", () => {
  const k = jit({ out: "f32[]" }, (out) => {
    const double = 2;
    let M_PI = out[0] * double;
    for (let i = 0; i < 2; i++) M_PI += i;
    for (let i = 0; i < 2; i++) M_PI -= i;
    const $x = M_PI;
    out[0] = $x;
  });
  const cuda = k.source("cuda");
  assert.ok(cuda.includes("float v_M_PI = out[0] * 2.0f;"), cuda);
  assert.ok(
    cuda.includes("for (int i = 0; i < 2; i++)") && cuda.includes("for (int i_2 = 0; i_2 < 2; i_2++)"),
    cuda,
  );
  assert.ok(cuda.includes("const float _x = v_M_PI;"), cuda);
});

Deno.test("i32 arithmetic is emitted in unsigned arithmetic so that it wraps, except counting loops", () => {
  const k = jit({ a: "i32[]", n: "i32" }, (a, n) => {
    const i = grid(1);
    a[0] = a[1] * n - i;
    for (let j = 0; j < n; j++) a[j] = -a[j];
    for (let j = 0; j <= n; j++) a[0] += j;
  });
  const cuda = k.source("cuda");
  assert.ok(cuda.includes("const int i = (int)(threadIdx.x + blockIdx.x * blockDim.x);"), cuda);
  assert.ok(cuda.includes("a[0] = (int)((unsigned int)a[1] * (unsigned int)n - (unsigned int)i);"), cuda);
  assert.ok(cuda.includes("for (int j = 0; j < n; j++) {\n    a[j] = (int)(0u - (unsigned int)a[j]);"), cuda);
  assert.ok(cuda.includes("for (int j_2 = 0; j_2 <= n; j_2 = (int)((unsigned int)j_2 + 1u))"), cuda);
});

Deno.test("integer division uses C's operator for a constant divisor and a helper otherwise", () => {
  const k = jit({ a: "i32[]", n: "i32" }, (a, n) => {
    a[0] = (a[1] / 4) | 0;
    a[1] = (a[2] / n) | 0;
    a[2] = a[3] % n;
    a[3] = Math.floor(a[4] / n);
    a[4] = (a[5] / n) | 0;
  });
  const cuda = k.source("cuda");
  assert.ok(cuda.includes("a[0] = a[1] / 4;"), cuda);
  assert.ok(cuda.includes("a[1] = cudeno_div_i32(a[2], n);"), cuda);
  assert.ok(cuda.includes("a[2] = cudeno_rem_i32(a[3], n);"), cuda);
  assert.ok(cuda.includes("a[3] = cudeno_floordiv_i32(a[4], n);"), cuda);
  assert.equal(cuda.match(/__device__ __forceinline__ int cudeno_div_i32\(int a, int b\)/g)?.length, 1);
});

Deno.test("Math functions map to each dialect's spelling, with helpers where C differs from JavaScript", () => {
  const k = jit({ a: "f32[]", d: "f64[]", i: "i32[]" }, (a, d, i) => {
    a[0] = Math.sqrt(a[1]) + Math.exp(a[2]) + Math.abs(a[3]) + Math.round(a[4]) + Math.min(a[5], a[6]);
    d[0] = Math.sqrt(d[1]) + Math.atan2(d[2], d[3]) + Math.max(d[4], d[5]);
    i[0] = Math.min(i[1], i[2]) + Math.abs(i[3]);
  });
  const cuda = k.source("cuda"), opencl = k.source("opencl");
  assert.ok(
    cuda.includes(
      "sqrtf(a[1]) + expf(a[2]) + fabsf(a[3]) + cudeno_round_f32(a[4]) + cudeno_min_f32(a[5], a[6])",
    ),
    cuda,
  );
  assert.ok(cuda.includes("sqrt(d[1]) + atan2(d[2], d[3]) + cudeno_max_f64(d[4], d[5])"), cuda);
  assert.ok(cuda.includes("min(i[1], i[2])") && cuda.includes("abs(i[3])"), cuda);
  assert.ok(
    opencl.includes(
      "sqrt(a[1]) + exp(a[2]) + fabs(a[3]) + cudeno_round_f32(a[4]) + cudeno_min_f32(a[5], a[6])",
    ),
    opencl,
  );
  assert.ok(opencl.includes("(int)abs(i[3])"), opencl);
});

Deno.test("float atomicAdd is native in CUDA and a compare-exchange loop in OpenCL", () => {
  const k = jit({ sum: "f32[]", a: "f32[]" }, (sum, a) => {
    const part = shared.array("f32", 1);
    atomicAdd(part, 0, a[threadIdx.x]);
    syncthreads();
    if (threadIdx.x === 0) atomicAdd(sum, 0, part[0]);
  });
  const cuda = k.source("cuda"), opencl = k.source("opencl");
  assert.ok(cuda.includes("atomicAdd(&part[0], a[(int)threadIdx.x]);"), cuda);
  assert.ok(
    opencl.includes("float cudeno_atomic_add_f32_shared(volatile __local float *p, float v)"),
    opencl,
  );
  assert.ok(
    opencl.includes("float cudeno_atomic_add_f32_global(volatile __global float *p, float v)"),
    opencl,
  );
  assert.ok(opencl.includes("cudeno_atomic_add_f32_global(&sum[0], part[0])"), opencl);
});

Deno.test("source() caches each dialect and rejects an unknown one", () => {
  const k = jit({ a: "f32[]" }, (a) => {
    a[0] = 1;
  }, { name: "k" });
  assert.equal(k.source("cuda"), k.source("cuda"));
  assert.throws(() => k.source("metal" as Dialect), {
    name: "TypeError",
    message: 'Cannot generate kernel "k": the dialect must be "cuda" or "opencl", got metal',
  });
});
