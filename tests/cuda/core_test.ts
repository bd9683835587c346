import assert from "node:assert/strict";
import * as cuda from "../../src/cuda/mod.ts";
import { cudaContext, cudaTest } from "../_backends.ts";
import { freeMemory, settled } from "../_device_memory.ts";

cudaTest("Device reports name, compute capability, memory, bus id, uuid and attributes", () => {
  cudaContext();
  assert.ok(cuda.Device.count() >= 1);
  const dev = new cuda.Device(0);
  assert.ok(dev.name.length > 0);
  const [major, minor] = dev.computeCapability;
  assert.ok(major >= 3 && minor >= 0);
  assert.ok(dev.totalMemory > 2n ** 30n);
  assert.match(dev.pciBusId, /^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.\d$/);
  assert.match(dev.uuid, /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const a = dev.attributes;
  assert.equal(a.warpSize, 32);
  assert.ok(a.multiprocessorCount > 0 && a.maxThreadsPerBlock >= 512 && a.l2CacheSizeBytes > 0);
  assert.ok(a.memoryClockRateKHz > 0 && a.globalMemoryBusWidthBits > 0);
  const [dmajor, dminor] = cuda.driverVersion();
  assert.ok(dmajor >= 11 && dminor >= 0);
});

cudaTest("new Device() rejects an ordinal that does not exist, saying how many there are", () => {
  assert.throws(() => new cuda.Device(cuda.Device.count()), {
    name: "RangeError",
    message: /this machine has \d+ device/,
  });
});

cudaTest("memcpyHtoD() and memcpyDtoH() round-trip data", () => {
  cudaContext();
  const a = Float32Array.from({ length: 4096 }, (_, i) => i / 3);
  using buf = cuda.memAlloc(a.byteLength);
  cuda.memcpyHtoD(buf, a);
  const back = new Float32Array(4096);
  cuda.memcpyDtoH(back, buf);
  assert.deepEqual(back, a);
  using other = cuda.memAlloc(a.byteLength);
  cuda.memcpyDtoD(other, buf);
  const again = new Float32Array(4096);
  cuda.memcpyDtoH(again, other);
  assert.deepEqual(again, a);
});

cudaTest("memcpyHtoD() rejects a host array larger than the allocation", () => {
  cudaContext();
  using buf = cuda.memAlloc(16);
  assert.throws(() => cuda.memcpyHtoD(buf, new Float32Array(5)), {
    name: "RangeError",
    message: "Cannot memcpyHtoD(): 20 bytes do not fit in a device allocation of 16 bytes",
  });
  assert.throws(() => cuda.memcpyDtoH(new Float64Array(3), buf), RangeError);
  assert.throws(() => cuda.memcpyHtoD(new Float32Array(1) as never, new Float32Array(1)), TypeError);
});

cudaTest("DeviceAllocation.free() is idempotent and a freed allocation cannot be used", () => {
  cudaContext();
  const buf = cuda.memAlloc(64);
  buf.free();
  buf.free();
  assert.equal(buf.freed, true);
  assert.throws(() => buf.ptr, { name: "TypeError", message: /it was freed/ });
  assert.throws(() => cuda.memcpyHtoD(buf, new Uint8Array(4)), TypeError);
});

cudaTest("memAlloc() beyond free memory names the sizes and leaves the device usable", async () => {
  cudaContext();
  const before = cuda.memGetInfo();
  const tooMuch = Number(before.total) * 2;
  assert.throws(() => cuda.memAlloc(tooMuch), (e: unknown) => {
    assert.ok(e instanceof cuda.CudaError);
    assert.equal(e.codeName, "CUDA_ERROR_OUT_OF_MEMORY");
    assert.match(
      e.message,
      /cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY \(out of memory\): asked for .* GiB .* free of/,
    );
    return true;
  });
  // Other processes' allocations move the device's free memory too: read until it settles.
  const down = await settled(() => before.free - freeMemory(), (d) => d < 2n ** 20n);
  assert.ok(down < 2n ** 20n, "a failed allocation must leave nothing allocated");
  using small = cuda.memAlloc(1 << 20);
  assert.equal(small.size, 1 << 20);
});

cudaTest("memAlloc() rejects a zero or fractional size", () => {
  cudaContext();
  assert.throws(() => cuda.memAlloc(0), RangeError);
  assert.throws(() => cuda.memAlloc(1.5), RangeError);
});

cudaTest("memsetD8/D16/D32() fill device memory and check bounds", () => {
  cudaContext();
  using buf = cuda.memAlloc(256);
  cuda.memsetD32(buf, 0x3f800000, 64);
  const f = new Float32Array(64);
  cuda.memcpyDtoH(f, buf);
  assert.ok(f.every((v) => v === 1));
  cuda.memsetD16(buf, 0xabcd, 128);
  const u16 = new Uint16Array(128);
  cuda.memcpyDtoH(u16, buf);
  assert.ok(u16.every((v) => v === 0xabcd));
  cuda.memsetD8(buf, 7, 256);
  const u8 = new Uint8Array(256);
  cuda.memcpyDtoH(u8, buf);
  assert.ok(u8.every((v) => v === 7));
  assert.throws(() => cuda.memsetD32(buf, 0, 65), RangeError);
  assert.throws(() => cuda.memsetD8(buf, 256, 1), RangeError);
});

cudaTest("pagelockedEmpty() gives a pinned typed array that free() detaches", async () => {
  cudaContext();
  const pinned = cuda.pagelockedEmpty(1 << 16, "float32");
  pinned.array.fill(4);
  using dev = cuda.memAlloc(pinned.array.byteLength);
  using stream = new cuda.Stream();
  cuda.memcpyHtoDAsync(dev, pinned.array, stream);
  const back = cuda.pagelockedEmpty(1 << 16, "float32");
  cuda.memcpyDtoHAsync(back.array, dev, stream);
  await stream.completed();
  assert.ok(back.array.every((v) => v === 4));
  pinned.free();
  pinned.free();
  assert.equal(pinned.array.length, 0);
  back.free();
});

cudaTest("Event.elapsedTime() times work between two recorded events", () => {
  cudaContext();
  using stream = new cuda.Stream();
  const start = new cuda.Event().record(stream);
  using buf = cuda.memAlloc(64 << 20);
  cuda.memsetD8(buf, 1, 64 << 20, stream);
  const end = new cuda.Event().record(stream);
  end.synchronize();
  assert.ok(end.isDone());
  const ms = start.elapsedTime(end);
  assert.ok(ms > 0 && ms < 1000, `${ms} ms`);
  assert.equal(end.timeSince(start), ms);
  start.destroy();
  start.destroy();
  assert.throws(() => start.record(), TypeError);
});

const ADD_4X4 = `__global__ void add(float *a, float *b, float *c) {
  int idx = threadIdx.x + threadIdx.y * 4; c[idx] = a[idx] + b[idx]; }`;

cudaTest("SourceModule runs the PyCUDA 4×4 add", () => {
  cudaContext();
  const a = Float32Array.from({ length: 16 }, () => Math.random());
  const b = Float32Array.from({ length: 16 }, () => Math.random());
  const c = new Float32Array(16);
  using aGpu = cuda.memAlloc(a.byteLength),
    bGpu = cuda.memAlloc(b.byteLength),
    cGpu = cuda.memAlloc(c.byteLength);
  cuda.memcpyHtoD(aGpu, a);
  cuda.memcpyHtoD(bGpu, b);
  using mod = new cuda.SourceModule(ADD_4X4);
  const add = mod.getFunction("add");
  assert.equal(add.kernelName, "add");
  assert.deepEqual(add.params.map((p) => p.name), ["a", "b", "c"]);
  add(aGpu, bGpu, cGpu, { block: [4, 4, 1] });
  cuda.memcpyDtoH(c, cGpu);
  for (let i = 0; i < 16; i++) assert.equal(c[i], Math.fround(a[i]! + b[i]!));
  assert.ok(add.attributes.numRegs > 0);
});

cudaTest("SourceModule throws CompileError carrying NVRTC's log", () => {
  cudaContext();
  try {
    new cuda.SourceModule("__global__ void broken(float *x) { x[0] = undefined_name; }", { cache: false });
    assert.fail("expected a compile error");
  } catch (e) {
    assert.ok(e instanceof cuda.CompileError);
    assert.match(e.log, /undefined_name/);
    assert.match(e.message, /identifier "undefined_name" is undefined/);
    assert.match(e.log, /kernel\.cu\(1\)/, "line numbers refer to the user's source");
  }
});

cudaTest("Module() of an image the driver rejects throws CudaError carrying the JIT's log", () => {
  cudaContext();
  const ptx = `.version 7.0
.target sm_52
.address_size 64
.visible .entry bad_ptx() {
  not_an_instruction %r1;
  ret;
}
\0`;
  assert.throws(() => new cuda.Module(new TextEncoder().encode(ptx)), (e: unknown) => {
    assert.ok(e instanceof cuda.CudaError, String(e));
    assert.match(e.message, /^cuModuleLoadDataEx failed: CUDA_ERROR_\w+ .*not_an_instruction/s);
    return true;
  });
  using good = new cuda.Module(cuda.compile("__global__ void after_bad(int *x) { *x = 7; }").image);
  assert.equal(good.getFunction("after_bad", "int *x").kernelName, "after_bad");
});

cudaTest(
  "SourceModule loads from the disk cache in a second process without compiling, signatures included",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "cudeno-cuda-cache-" });
    const name = `cached_kernel_${Date.now()}`;
    const source = `__global__ void ${name}(float *x, int v) { x[0] = v; }`;
    const script = `import * as cuda from "${new URL("../../src/cuda/mod.ts", import.meta.url).href}";
    cuda.useDevice(0);
    const t = performance.now();
    const m = new cuda.SourceModule(${JSON.stringify(source)});
    const ms = performance.now() - t;
    const x = new Float32Array(1);
    m.getFunction(${JSON.stringify(name)})(cuda.Out(x), 42, { block: 1 });
    const params = cuda.compile(${JSON.stringify(source)}).signatures?.[0]?.params.map((p) => p.text);
    console.log(JSON.stringify({ cache: m.cache, ms, value: x[0], params }));`;
    const run = async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["eval", script],
        env: { CUDENO_CACHE_DIR: dir },
        stdout: "piped",
        stderr: "inherit",
      }).output();
      assert.equal(out.code, 0);
      return JSON.parse(new TextDecoder().decode(out.stdout));
    };
    try {
      const first = await run(), second = await run();
      assert.equal(first.cache, "none");
      assert.equal(second.cache, "disk");
      for (const r of [first, second]) {
        assert.equal(r.value, 42);
        assert.deepEqual(r.params, ["float *", "int"]);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

cudaTest(
  "SourceModule.compile() compiles on a worker thread and the memory cache answers a repeat",
  async () => {
    cudaContext();
    const src = `__global__ void async_k(int *x) { *x = 7; }`;
    const mod = await cuda.SourceModule.compile(src);
    const again = new cuda.SourceModule(src);
    assert.equal(again.cache, "memory");
    const x = new Int32Array(1);
    mod.getFunction("async_k")(cuda.Out(x), { block: 1 });
    assert.equal(x[0], 7);
    cuda.clearMemoryCache();
  },
);

cudaTest("getFunction() of an unknown kernel names the kernels the module has", () => {
  cudaContext();
  using mod = new cuda.SourceModule(ADD_4X4);
  assert.throws(() => mod.getFunction("sub"), {
    name: "CudaError",
    message: /no kernel "sub" in the module \(kernels: add\)/,
  });
});

const TYPES =
  `__global__ void types(long long *out, int i, unsigned u, long long l, unsigned long long ul, float f,
  double d, char c, unsigned char uc, short s, unsigned short us, size_t z, bool b, __half h) {
  out[0] = i; out[1] = u; out[2] = l; out[3] = (long long)ul; out[4] = (long long)(f * 1000);
  out[5] = (long long)(d * 1000000); out[6] = c; out[7] = uc; out[8] = s; out[9] = us; out[10] = (long long)z;
  out[11] = b; out[12] = (long long)(__half2float(h) * 1000);
}`;

cudaTest("a launch packs every C scalar type from the kernel's own signature", () => {
  cudaContext();
  using mod = new cuda.SourceModule(`#include <cuda_fp16.h>\n${TYPES}`);
  const out = new BigInt64Array(13);
  mod.getFunction("types")(
    cuda.Out(out),
    -7,
    4000000000,
    -(2n ** 40n),
    2n ** 62n,
    1.5,
    2.25,
    -100,
    200,
    -30000,
    60000,
    2n ** 40n,
    true,
    0.5,
    { block: 1 },
  );
  assert.deepEqual([...out], [
    -7n,
    4000000000n,
    -(2n ** 40n),
    2n ** 62n,
    1500n,
    2250000n,
    -100n,
    200n,
    -30000n,
    60000n,
    2n ** 40n,
    1n,
    500n,
  ]);
});

cudaTest("a launch with the wrong count or types is a TypeError naming the parameter", () => {
  cudaContext();
  using mod = new cuda.SourceModule(
    "__global__ void scale(float *x, float a, int n) { int i = threadIdx.x; if (i < n) x[i] *= a; }",
  );
  const scale = mod.getFunction("scale");
  using x = cuda.memAlloc(64);
  assert.throws(() => scale(x, 2, { block: 16 }), {
    name: "TypeError",
    message: /it takes 3 arguments \(x, a, n\) and then a launch config/,
  });
  assert.throws(() => scale(x, 2, 16), { name: "TypeError", message: /launch config/ });
  assert.throws(() => scale(x, 2, 16, 256), {
    name: "TypeError",
    message: /scale\(\): its launch config must be an object such as \{ block: 256, grid: 1 \}, not number/,
  });
  assert.throws(() => scale(x, 2, 16, { grid: 1 }), {
    name: "TypeError",
    message: /not an object without block/,
  });
  assert.throws(() => scale(x, 2, 1.5, { block: 16 }), {
    name: "TypeError",
    message: /parameter 3 \(int n\): it needs an integer/,
  });
  assert.throws(() => scale(7, 2, 16, { block: 16 }), {
    name: "TypeError",
    message: /parameter 1 \(float \* x\)/,
  });
  assert.throws(() => scale(x, "2", 16, { block: 16 }), {
    name: "TypeError",
    message: /parameter 2 \(float a\)/,
  });
  assert.throws(() => scale(cuda.In(new Float64Array(16)), 2, 16, { block: 16 }), {
    name: "TypeError",
    message: /Float64Array .* points to float32/,
  });
});

cudaTest("a block or grid beyond the device's limits is a RangeError before the driver sees it", () => {
  cudaContext();
  using mod = new cuda.SourceModule("__global__ void nop(int n) {}");
  const nop = mod.getFunction("nop");
  assert.throws(() => nop(1, { block: [32, 64, 1] }), {
    name: "RangeError",
    message: /2048 threads exceeds .* limit of 1024 per block/,
  });
  assert.throws(() => nop(1, { block: 1, grid: [1, 70000] }), {
    name: "RangeError",
    message: /grid.y = 70000 exceeds/,
  });
  assert.throws(() => nop(1, { block: 1, shared: 1 << 20 }), {
    name: "RangeError",
    message: /shared = 1048576 bytes/,
  });
  nop(1, { block: 1024, grid: [1, 65535] });
  cuda.synchronize();
});

cudaTest("In, Out and InOut copy host arrays around a launch", () => {
  cudaContext();
  using mod = new cuda.SourceModule(
    "__global__ void axpy(float *out, const float *x, float *y, float a) { int i = threadIdx.x; out[i] = a * x[i] + y[i]; y[i] = -1; }",
  );
  const x = Float32Array.from({ length: 32 }, (_, i) => i);
  const y = new Float32Array(32).fill(1);
  const out = new Float32Array(32);
  mod.getFunction("axpy")(cuda.Out(out), cuda.In(x), cuda.InOut(y), 2, { block: 32 });
  for (let i = 0; i < 32; i++) assert.equal(out[i], 2 * i + 1);
  assert.ok(y.every((v) => v === -1));
});

cudaTest("getGlobal() finds a __device__ variable that copies can read", () => {
  cudaContext();
  using mod = new cuda.SourceModule("__device__ int counter = 41; __global__ void bump() { counter++; }");
  mod.getFunction("bump")({ block: 1 });
  const g = mod.getGlobal("counter");
  assert.equal(g.size, 4);
  const v = new Int32Array(1);
  cuda.memcpyDtoH(v, g);
  assert.equal(v[0], 42);
});

cudaTest("noExternC with nameExpressions launches a template instantiation", () => {
  cudaContext();
  using mod = new cuda.SourceModule(
    "template <typename T> __global__ void fill(T *x, T v) { x[threadIdx.x] = v; }",
    {
      noExternC: true,
      nameExpressions: ["fill<double>"],
    },
  );
  assert.throws(() => mod.getFunction("fill<double>"), /is a template/);
  const x = new Float64Array(8);
  mod.getFunction("fill<double>", "double *x, double v")(cuda.Out(x), 2.5, { block: 8 });
  assert.ok(x.every((v) => v === 2.5));
});

cudaTest("Module.unload() makes its kernels unlaunchable with a clear error", () => {
  cudaContext();
  const mod = new cuda.SourceModule("__global__ void gone(int n) {}");
  const gone = mod.getFunction("gone");
  mod.unload();
  mod.unload();
  assert.throws(() => gone(1, { block: 1 }), { name: "TypeError", message: /its module was unloaded/ });
});

cudaTest("Stream.completed() does not block the event loop while a kernel runs", async () => {
  cudaContext();
  using mod = new cuda.SourceModule(
    "__global__ void spin(long long cycles) { long long t = clock64(); while (clock64() - t < cycles) {} }",
  );
  using stream = new cuda.Stream();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    const started = performance.now();
    mod.getFunction("spin")(200_000_000n, { block: 1, stream });
    await stream.completed();
    const elapsed = performance.now() - started;
    assert.ok(elapsed > 30, `the kernel ran ${elapsed.toFixed(1)} ms`);
    assert.ok(ticks >= 5, `the timer ticked ${ticks} times during ${elapsed.toFixed(0)} ms`);
  } finally {
    clearInterval(timer);
  }
});
