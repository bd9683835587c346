import assert from "node:assert/strict";
import { parseKernels, parseParameterList } from "../../src/kernel/signature.ts";

Deno.test("parseKernels() reads a PyCUDA-style kernel's parameters and types", () => {
  const [k] = parseKernels(
    `__global__ void add(float *a, float *b, float *c) { int idx = threadIdx.x; c[idx] = a[idx] + b[idx]; }`,
    "cuda",
  );
  assert.equal(k!.name, "add");
  assert.deepEqual(k!.params.map((p) => [p.name, p.text, p.pointer, p.dtype]), [
    ["a", "float *", true, "float32"],
    ["b", "float *", true, "float32"],
    ["c", "float *", true, "float32"],
  ]);
});

Deno.test("parseKernels() maps every CUDA scalar spelling to its dtype", () => {
  const src =
    `extern "C" __global__ void __launch_bounds__(256) k(int a, unsigned b, unsigned int c, long long d,
    unsigned long long e, size_t f, char g, unsigned char h, short i, unsigned short j, double k2, float l,
    __half m, __nv_bfloat16 n, bool o, int64_t p, uint8_t q, const float* __restrict__ r) {}`;
  const [k] = parseKernels(src, "cuda");
  assert.deepEqual(k!.params.map((p) => p.dtype), [
    "int32",
    "uint32",
    "uint32",
    "int64",
    "uint64",
    "uint64",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "float64",
    "float32",
    "float16",
    "bfloat16",
    "bool",
    "int64",
    "uint8",
    "float32",
  ]);
  assert.equal(k!.params.at(-1)!.text, "const float *");
  assert.equal(k!.params.at(-1)!.isConst, true);
});

Deno.test("parseKernels() reads OpenCL address spaces, attributes and vector-free scalars", () => {
  const src = `// a comment with __kernel void fake(int x)
  /* and another __kernel void fake2() */
  __kernel __attribute__((reqd_work_group_size(64, 1, 1))) void reduce(__global const float *in,
      __local float *scratch, const uint n, long m, ulong o, uchar p, char q) { }
  kernel void second(global int *x) {}`;
  const ks = parseKernels(src, "opencl");
  assert.deepEqual(ks.map((k) => k.name), ["reduce", "second"]);
  assert.deepEqual(ks[0]!.params.map((p) => [p.name, p.addressSpace, p.dtype]), [
    ["in", "global", "float32"],
    ["scratch", "local", "float32"],
    ["n", undefined, "uint32"],
    ["m", undefined, "int64"],
    ["o", undefined, "uint64"],
    ["p", undefined, "uint8"],
    ["q", undefined, "int8"],
  ]);
  assert.equal(ks[0]!.line, 3);
});

Deno.test("parseKernels() reports a declaration and its definition once and skips strings and macros", () => {
  const src = `#define N 4
  #include "x.h"
  __global__ void f(int n);
  const char *s = "__global__ void g(int)";
  __global__ void f(int n) { }`;
  const ks = parseKernels(src, "cuda");
  assert.deepEqual(ks.map((k) => k.name), ["f"]);
});

Deno.test("parseKernels() skips continued macros, comments before a directive and escaped quotes, and counts lines past them", () => {
  const src = [
    "#define K(x) \\",
    "  __global__ void hidden(int x)",
    "/* a comment */ #define M __global__ void also_hidden(int)",
    "const char c = '\\''; const char *s = \"a \\\" __global__ void in_string(int)\";",
    "// __global__ void in_comment(int)",
    "__global__ void seen(float *x, int n) {}",
  ].join("\n");
  const ks = parseKernels(src, "cuda");
  assert.deepEqual(ks.map((k) => [k.name, k.line, k.params.length]), [["seen", 6, 2]]);
});

Deno.test("parseKernels() marks template kernels", () => {
  const [k] = parseKernels(`template <typename T> __global__ void scale(T *x, T a) {}`, "cuda");
  assert.equal(k!.template, true);
  assert.equal(k!.params[1]!.dtype, undefined);
});

Deno.test("parseKernels() accepts void and empty parameter lists and array parameters", () => {
  const ks = parseKernels(
    `__global__ void a(void) {} __global__ void b() {} __global__ void c(float x[], int n) {}`,
    "cuda",
  );
  assert.deepEqual(ks.map((k) => k.params.length), [0, 0, 2]);
  assert.equal(ks[2]!.params[0]!.pointer, true);
});

Deno.test("parseKernels() rejects a kernel that does not return void, with its line", () => {
  assert.throws(() => parseKernels("\n\n__global__ int f(int x) {}", "cuda"), {
    name: "SyntaxError",
    message: /line 3: a kernel must return void/,
  });
});

Deno.test("parseKernels() rejects an unbalanced parameter list", () => {
  assert.throws(() => parseKernels("__global__ void f(int x {", "cuda"), SyntaxError);
});

Deno.test("parseParameterList() parses ElementwiseKernel-style argument lists", () => {
  const ps = parseParameterList("float *x, float *y, float *z, float a, float b", "cuda");
  assert.deepEqual(ps.map((p) => `${p.index}:${p.name}:${p.dtype}:${p.pointer}`), [
    "0:x:float32:true",
    "1:y:float32:true",
    "2:z:float32:true",
    "3:a:float32:false",
    "4:b:float32:false",
  ]);
  assert.deepEqual(parseParameterList("", "cuda"), []);
});

Deno.test("parseParameterList() names unnamed parameters by position", () => {
  const ps = parseParameterList("float *, unsigned int", "cuda");
  assert.deepEqual(ps.map((p) => [p.name, p.text]), [["arg0", "float *"], ["arg1", "unsigned int"]]);
});

Deno.test("parseParameterList() rejects what is not a type", () => {
  assert.throws(() => parseParameterList("float * 3x", "cuda"), SyntaxError);
  assert.throws(() => parseParameterList("int a, , int b", "cuda"), /parameter 2 is empty/);
});
