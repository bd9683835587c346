// The C floor of the cudeno benchmark suite: each figure that cudeno is compared with, measured the
// plainest way the CUDA driver API and NVRTC allow. One JSON record per line on stdout, all else on stderr.
//
// Usage: cuda_bench [all|first-result]
//   all           every figure (see bench/README.md for what each one means)
//   first-result  only what a user's first script does: init, compile, one vector add, check, exit 0;
//                 the orchestrator times the whole process.
#include <cuda.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLES 5
#define CHECK(call) check_cu((call), #call, __LINE__)
#define NVRTC_CHECK(call) check_nvrtc((call), #call, __LINE__)

#define EMPTY_SRC "extern \"C\" __global__ void empty(float *p, int n) {}\n"
#define VADD_SRC                                                                   \
  "extern \"C\" __global__ void vadd(const float *a, const float *b, float *c, int n) {\n" \
  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                               \
  "  if (i < n) c[i] = a[i] + b[i];\n"                                               \
  "}\n"
#define ARGS8_SRC                                                                                      \
  "extern \"C\" __global__ void args8(float *a, float *b, float *c, float *d, int n, float alpha,\n"   \
  "                                   float beta, int flag) {\n"                                       \
  "  if (n < 0) a[0] = alpha + beta + flag + b[0] + c[0] + d[0];\n"                                    \
  "}\n"

static void check_cu(CUresult r, const char *call, int line) {
  if (r == CUDA_SUCCESS) return;
  const char *name = NULL;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || name == NULL) name = "unknown CUresult";
  fprintf(stderr, "cuda_bench.c:%d: %s failed: %s (%d)\n", line, call, name, (int)r);
  exit(1);
}

static void check_nvrtc(nvrtcResult r, const char *call, int line) {
  if (r == NVRTC_SUCCESS) return;
  fprintf(stderr, "cuda_bench.c:%d: %s failed: %s (%d)\n", line, call, nvrtcGetErrorString(r), (int)r);
  exit(1);
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (p == NULL) {
    fprintf(stderr, "cuda_bench.c: malloc(%zu) failed\n", bytes);
    exit(1);
  }
  return p;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Random floats in [0, 1): never time or check on zeros, they hide unwritten outputs.
static void fill_random(float *x, size_t n, uint32_t seed) {
  uint32_t s = seed ? seed : 1;
  for (size_t i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    x[i] = (float)(s >> 8) * (1.0f / 16777216.0f);
  }
}

static void print_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
    else putchar(*s);
  }
  putchar('"');
}

static void emit(const char *figure, const char *unit, const char *better, const double *samples, int n,
                 const char *note) {
  printf("{\"impl\": \"c\", \"figure\": ");
  print_json_string(figure);
  printf(", \"unit\": \"%s\", \"better\": \"%s\", \"samples\": [", unit, better);
  for (int i = 0; i < n; i++) printf("%s%.6g", i ? ", " : "", samples[i]);
  printf("]");
  if (note != NULL) {
    printf(", \"note\": ");
    print_json_string(note);
  }
  printf("}\n");
  fflush(stdout);
}

typedef struct {
  CUdevice dev;
  CUcontext ctx;
  int major, minor;
} Gpu;

static Gpu gpu_open(void) {
  Gpu g;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&g.dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&g.ctx, g.dev));
  CHECK(cuCtxSetCurrent(g.ctx));
  CHECK(cuDeviceGetAttribute(&g.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g.dev));
  CHECK(cuDeviceGetAttribute(&g.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g.dev));
  return g;
}

typedef struct {
  char *data;
  size_t size;
} Cubin;

// Compiles straight to a cubin for the device's own sm_XY, so that loading it involves no PTX JIT.
static Cubin compile(const char *src, const Gpu *g) {
  nvrtcProgram prog;
  NVRTC_CHECK(nvrtcCreateProgram(&prog, src, "cuda_bench.cu", 0, NULL, NULL));
  char arch[40];
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", g->major, g->minor);
  const char *opts[] = {arch};
  nvrtcResult r = nvrtcCompileProgram(prog, 1, opts);
  if (r != NVRTC_SUCCESS) {
    size_t log_size = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_size));
    char *log = xmalloc(log_size + 1);
    NVRTC_CHECK(nvrtcGetProgramLog(prog, log));
    log[log_size] = '\0';
    fprintf(stderr, "NVRTC log:\n%s\n", log);
    NVRTC_CHECK(r);
  }
  Cubin c;
  NVRTC_CHECK(nvrtcGetCUBINSize(prog, &c.size));
  c.data = xmalloc(c.size);
  NVRTC_CHECK(nvrtcGetCUBIN(prog, c.data));
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));
  return c;
}

static CUfunction load_function(const Cubin *c, const char *name, CUmodule *mod) {
  CUfunction f;
  CHECK(cuModuleLoadData(mod, c->data));
  CHECK(cuModuleGetFunction(&f, *mod, name));
  return f;
}

static void launch_1x32(CUfunction f, void **args) {
  CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
}

// Seconds for `count` launches queued back to back and one synchronize of the default stream.
static double time_async_launches(CUfunction f, void **args, int count) {
  double t0 = now_s();
  for (int i = 0; i < count; i++) launch_1x32(f, args);
  CHECK(cuStreamSynchronize(NULL));
  return now_s() - t0;
}

static void bench_launch_async(const char *figure, CUfunction f, void **args) {
  const int per_sample = 200000;
  double s[SAMPLES];
  time_async_launches(f, args, per_sample);  // warm-up, also brings the clocks up
  for (int i = 0; i < SAMPLES; i++) s[i] = time_async_launches(f, args, per_sample) / per_sample * 1e6;
  emit(figure, "us", "lower", s, SAMPLES, "grid 1, block 32; 200000 launches, then one cuStreamSynchronize");
}

static double time_sync_launches(CUfunction f, void **args, int count) {
  double t0 = now_s();
  for (int i = 0; i < count; i++) {
    launch_1x32(f, args);
    CHECK(cuStreamSynchronize(NULL));
  }
  return now_s() - t0;
}

static void bench_launch_sync(CUfunction f, void **args) {
  const int per_sample = 20000;
  double s[SAMPLES];
  time_sync_launches(f, args, per_sample / 10);
  for (int i = 0; i < SAMPLES; i++) s[i] = time_sync_launches(f, args, per_sample) / per_sample * 1e6;
  emit("launch.empty.sync", "us", "lower", s, SAMPLES, "grid 1, block 32; cuStreamSynchronize after each");
}

// Graph figures: GRAPH_OPS launches of `empty` on one stream, queued one by one (eager) or captured
// once into a graph and replayed; GRAPH_REPLAYS rounds per sample, then one synchronize.
#define GRAPH_OPS 100
#define GRAPH_REPLAYS 2000

static double time_stream_launches(CUfunction f, void **args, CUstream s, int rounds) {
  double t0 = now_s();
  for (int r = 0; r < rounds; r++) {
    for (int k = 0; k < GRAPH_OPS; k++) CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, NULL));
  }
  CHECK(cuStreamSynchronize(s));
  return now_s() - t0;
}

static double time_graph_launches(CUgraphExec exec, CUstream s, int rounds) {
  double t0 = now_s();
  for (int r = 0; r < rounds; r++) CHECK(cuGraphLaunch(exec, s));
  CHECK(cuStreamSynchronize(s));
  return now_s() - t0;
}

static void bench_graph(CUfunction f, void **args) {
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_DEFAULT));
  CUgraph graph;
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  for (int k = 0; k < GRAPH_OPS; k++) CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, NULL));
  CHECK(cuStreamEndCapture(s, &graph));
  size_t nodes = 0;
  CHECK(cuGraphGetNodes(graph, NULL, &nodes));
  if (nodes != GRAPH_OPS) {
    fprintf(stderr, "cuda_bench.c: the captured graph has %zu nodes, want %d\n", nodes, GRAPH_OPS);
    exit(1);
  }
  CUgraphExec exec;
  CHECK(cuGraphInstantiateWithFlags(&exec, graph, 0));
  CHECK(cuGraphUpload(exec, s));
  time_stream_launches(f, args, s, GRAPH_REPLAYS / 10);  // warm-up
  time_graph_launches(exec, s, GRAPH_REPLAYS / 10);
  double eager[SAMPLES], replay[SAMPLES];
  const double per_op = 1e6 / ((double)GRAPH_REPLAYS * GRAPH_OPS);
  for (int i = 0; i < SAMPLES; i++) {  // in turns, so that drift hits both alike
    eager[i] = time_stream_launches(f, args, s, GRAPH_REPLAYS) * per_op;
    replay[i] = time_graph_launches(exec, s, GRAPH_REPLAYS) * per_op;
  }
  emit("graph.empty.eager", "us", "lower", eager, SAMPLES,
       "100 launches of empty (grid 1, block 32) on a stream, 2000 rounds, then cuStreamSynchronize; per launch");
  emit("graph.empty.replay", "us", "lower", replay, SAMPLES,
       "the same 100 launches captured once (cuStreamBeginCapture) and replayed by cuGraphLaunch, 2000 times; per "
       "kernel");
  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));
  CHECK(cuStreamDestroy(s));
}

typedef enum { HTOD, DTOH } Dir;

// Seconds for `reps` synchronous copies. A copy from pageable memory may return once the data is staged,
// so the context is synchronized before the clock stops.
static double time_copies(Dir dir, void *host, CUdeviceptr dev, size_t bytes, int reps) {
  double t0 = now_s();
  for (int i = 0; i < reps; i++) {
    if (dir == HTOD) CHECK(cuMemcpyHtoD(dev, host, bytes));
    else CHECK(cuMemcpyDtoH(host, dev, bytes));
  }
  CHECK(cuCtxSynchronize());
  return now_s() - t0;
}

// Doubles the repeat count until one sample lasts at least 40 ms (margin over the 20 ms asked for);
// the calibration doubles as the warm-up.
static int calibrate_reps(Dir dir, void *host, CUdeviceptr dev, size_t bytes) {
  int reps = 1;
  while (time_copies(dir, host, dev, bytes, reps) < 0.04 && reps < (1 << 20)) reps *= 2;
  return reps;
}

static void bench_copy(Dir dir, const char *kind, void *host, CUdeviceptr dev, size_t bytes, const char *size) {
  int reps = calibrate_reps(dir, host, dev, bytes);
  double s[SAMPLES];
  for (int i = 0; i < SAMPLES; i++) {
    s[i] = (double)bytes * reps / time_copies(dir, host, dev, bytes, reps) / 1e9;
  }
  char figure[64], note[128];
  snprintf(figure, sizeof figure, "copy.%s.%s.%s", dir == HTOD ? "htod" : "dtoh", kind, size);
  snprintf(note, sizeof note, "%s, %d copies per sample", dir == HTOD ? "cuMemcpyHtoD" : "cuMemcpyDtoH", reps);
  emit(figure, "GB/s", "higher", s, SAMPLES, note);
}

static void bench_copies(void) {
  static const size_t sizes[] = {4096, 1 << 20, 64 << 20, (size_t)1 << 30};
  static const char *names[] = {"4KiB", "1MiB", "64MiB", "1GiB"};
  const size_t max = sizes[3];
  void *pinned;
  CHECK(cuMemAllocHost(&pinned, max));
  float *pageable = xmalloc(max);
  fill_random(pinned, max / sizeof(float), 11);
  fill_random(pageable, max / sizeof(float), 12);  // also touches every page before timing
  CUdeviceptr dev;
  CHECK(cuMemAlloc(&dev, max));
  for (int d = 0; d < 2; d++) {
    for (int k = 0; k < 2; k++) {
      for (int i = 0; i < 4; i++) {
        bench_copy(d ? DTOH : HTOD, k ? "pageable" : "pinned", k ? (void *)pageable : pinned, dev, sizes[i],
                   names[i]);
      }
    }
  }
  CHECK(cuMemFree(dev));
  free(pageable);
  CHECK(cuMemFreeHost(pinned));
}

static float elapsed_ms(CUevent start, CUevent stop) {
  float ms;
  CHECK(cuEventSynchronize(stop));
  CHECK(cuEventElapsedTime(&ms, start, stop));
  return ms;
}

// Compares the first and last MiB of a device buffer with the host data it should hold.
static void check_device_copy(CUdeviceptr dev, const float *want, size_t n, const char *what) {
  const size_t chunk = (1 << 20) / sizeof(float);
  float *got = xmalloc(chunk * sizeof(float));
  const size_t offsets[] = {0, n - chunk};
  for (int i = 0; i < 2; i++) {
    CHECK(cuMemcpyDtoH(got, dev + offsets[i] * sizeof(float), chunk * sizeof(float)));
    if (memcmp(got, want + offsets[i], chunk * sizeof(float)) != 0) {
      fprintf(stderr, "cuda_bench.c: %s: wrong data in the copy\n", what);
      exit(1);
    }
  }
  free(got);
}

static void bench_d2d(void) {
  const size_t n = (size_t)1 << 28, bytes = n * sizeof(float);
  const int reps = 20;
  float *host = xmalloc(bytes);
  fill_random(host, n, 21);
  CUdeviceptr src, dst;
  CHECK(cuMemAlloc(&src, bytes));
  CHECK(cuMemAlloc(&dst, bytes));
  CHECK(cuMemcpyHtoD(src, host, bytes));
  CHECK(cuMemsetD32(dst, 0x7fc00000u, n));  // NaN: a copy that writes nothing fails the check
  CUevent start, stop;
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK(cuMemcpyDtoD(dst, src, bytes));
  CHECK(cuCtxSynchronize());
  check_device_copy(dst, host, n, "d2d.copy.2^28");
  double s[20];
  for (int i = 0; i < reps; i++) {
    CHECK(cuEventRecord(start, NULL));
    CHECK(cuMemcpyDtoD(dst, src, bytes));
    CHECK(cuEventRecord(stop, NULL));
    s[i] = 2.0 * bytes / (elapsed_ms(start, stop) * 1e-3) / 1e9;
  }
  emit("d2d.copy.2^28", "GB/s", "higher", s, reps, "cuMemcpyDtoD of 2^28 floats, events; bytes read + written");
  CHECK(cuEventDestroy(start));
  CHECK(cuEventDestroy(stop));
  CHECK(cuMemFree(src));
  CHECK(cuMemFree(dst));
  free(host);
}

typedef struct {
  float *a, *b, *c;
  CUdeviceptr da, db, dc;
  int n;
} Vadd;

static Vadd vadd_alloc(int n) {
  Vadd v;
  size_t bytes = (size_t)n * sizeof(float);
  v.n = n;
  v.a = xmalloc(bytes);
  v.b = xmalloc(bytes);
  v.c = xmalloc(bytes);
  fill_random(v.a, n, 31);
  fill_random(v.b, n, 32);
  CHECK(cuMemAlloc(&v.da, bytes));
  CHECK(cuMemAlloc(&v.db, bytes));
  CHECK(cuMemAlloc(&v.dc, bytes));
  CHECK(cuMemsetD32(v.dc, 0x7fc00000u, n));
  return v;
}

// Two copies in, one launch, one copy out: the copy out returns only once c is on the host.
static void vadd_run(Vadd *v, CUfunction f) {
  size_t bytes = (size_t)v->n * sizeof(float);
  void *args[] = {&v->da, &v->db, &v->dc, &v->n};
  CHECK(cuMemcpyHtoD(v->da, v->a, bytes));
  CHECK(cuMemcpyHtoD(v->db, v->b, bytes));
  CHECK(cuLaunchKernel(f, (v->n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CHECK(cuMemcpyDtoH(v->c, v->dc, bytes));
}

// The device adds in IEEE single precision as the host does, so the sums must match bit for bit.
static void vadd_check(const Vadd *v) {
  for (int i = 0; i < v->n; i++) {
    if (v->c[i] != v->a[i] + v->b[i]) {
      fprintf(stderr, "cuda_bench.c: vadd: c[%d] = %g, want %g\n", i, v->c[i], v->a[i] + v->b[i]);
      exit(1);
    }
  }
}

static void vadd_free(Vadd *v) {
  CHECK(cuMemFree(v->da));
  CHECK(cuMemFree(v->db));
  CHECK(cuMemFree(v->dc));
  free(v->a);
  free(v->b);
  free(v->c);
}

static void bench_vadd(CUfunction f) {
  Vadd v = vadd_alloc(1 << 24);
  double s[SAMPLES];
  for (int i = -1; i < SAMPLES; i++) {  // i == -1 is the warm-up
    // NaN poison on both sides, outside the timed region, so that a launch that writes nothing fails
    memset(v.c, 0xff, (size_t)v.n * sizeof(float));
    CHECK(cuMemsetD32(v.dc, 0x7fc00000u, v.n));
    CHECK(cuCtxSynchronize());
    double t0 = now_s();
    vadd_run(&v, f);
    double dt = now_s() - t0;
    vadd_check(&v);
    if (i >= 0) s[i] = dt * 1e3;
  }
  emit("vadd.e2e.2^24", "ms", "lower", s, SAMPLES,
       "pageable host memory: 2 cuMemcpyHtoD, launch (block 256), cuMemcpyDtoH; device buffers allocated once");
  vadd_free(&v);
}

static Cubin bench_compile(const Gpu *g) {
  double s[SAMPLES];
  Cubin c = {NULL, 0};
  for (int i = 0; i < SAMPLES; i++) {
    free(c.data);
    double t0 = now_s();
    c = compile(EMPTY_SRC VADD_SRC, g);
    s[i] = (now_s() - t0) * 1e3;
  }
  int major, minor;
  NVRTC_CHECK(nvrtcVersion(&major, &minor));
  char note[128];
  snprintf(note, sizeof note, "NVRTC %d.%d, empty + vadd to a cubin for sm_%d%d; a new program each sample", major,
           minor, g->major, g->minor);
  emit("nvrtc.compile.cold", "ms", "lower", s, SAMPLES, note);
  return c;
}

static void bench_module_load(const Cubin *c) {
  const int reps = 20;
  double s[20];
  for (int i = -2; i < reps; i++) {  // two warm-ups
    double t0 = now_s();
    CUmodule mod;
    load_function(c, "vadd", &mod);
    CHECK(cuModuleUnload(mod));
    if (i >= 0) s[i] = (now_s() - t0) * 1e3;
  }
  emit("module.load", "ms", "lower", s, reps, "cuModuleLoadData + cuModuleGetFunction + cuModuleUnload");
}

static void describe(const Gpu *g) {
  char name[256];
  int driver;
  CHECK(cuDeviceGetName(name, sizeof name, g->dev));
  CHECK(cuDriverGetVersion(&driver));
  fprintf(stderr, "cuda_bench: %s, sm_%d%d, driver API %d\n", name, g->major, g->minor, driver);
}

static void bench_launches(const Gpu *g) {
  Cubin main_cubin = compile(EMPTY_SRC VADD_SRC, g), args8_cubin = compile(ARGS8_SRC, g);
  CUmodule main_mod, args8_mod;
  CUfunction empty = load_function(&main_cubin, "empty", &main_mod);
  CUfunction args8 = load_function(&args8_cubin, "args8", &args8_mod);
  CUfunction vadd;
  CHECK(cuModuleGetFunction(&vadd, main_mod, "vadd"));
  CUdeviceptr buf;
  CHECK(cuMemAlloc(&buf, 4 * 1024 * sizeof(float)));
  CUdeviceptr p[4] = {buf, buf + 4096, buf + 8192, buf + 12288};
  int n = 1024, flag = 1;
  float alpha = 1.5f, beta = 2.5f;
  // The argument arrays are built once and reused, as a careful C program does.
  void *empty_args[] = {&p[0], &n};
  void *args8_args[] = {&p[0], &p[1], &p[2], &p[3], &n, &alpha, &beta, &flag};
  bench_launch_async("launch.empty.async", empty, empty_args);
  bench_launch_async("launch.args8.async", args8, args8_args);
  bench_launch_sync(empty, empty_args);
  bench_graph(empty, empty_args);
  bench_vadd(vadd);
  CHECK(cuMemFree(buf));
  CHECK(cuModuleUnload(main_mod));
  CHECK(cuModuleUnload(args8_mod));
  free(main_cubin.data);
  free(args8_cubin.data);
}

static int run_all(void) {
  Gpu g = gpu_open();
  describe(&g);
  bench_launches(&g);
  bench_copies();
  bench_d2d();
  Cubin c = bench_compile(&g);
  bench_module_load(&c);
  free(c.data);
  CHECK(cuDevicePrimaryCtxRelease(g.dev));
  return 0;
}

// What a user's first script does, and nothing more. Nothing is freed: process exit releases it all,
// as it does for the script.
static int first_result(void) {
  Gpu g = gpu_open();
  Cubin c = compile(VADD_SRC, &g);
  CUmodule mod;
  CUfunction f = load_function(&c, "vadd", &mod);
  Vadd v = vadd_alloc(1 << 20);
  vadd_run(&v, f);
  vadd_check(&v);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "all";
  if (argc <= 2 && strcmp(mode, "all") == 0) return run_all();
  if (argc <= 2 && strcmp(mode, "first-result") == 0) return first_result();
  fprintf(stderr, "usage: cuda_bench [all|first-result]\n");
  return 2;
}
