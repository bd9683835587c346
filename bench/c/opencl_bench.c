// The C floor for cudeno's OpenCL binding: a tiny kernel's enqueue + finish, and a small program's build.
// One JSON record per line on stdout, all else on stderr.
//
// Device: the first GPU of any platform, else the first device of the first platform that has one;
// CUDENO_OPENCL_DEVICE=P:D picks device D of platform P instead (indices from 0, any device type).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAMPLES 5
#define MAX_PLATFORMS 16
#define MAX_DEVICES 64
#define CHECK(call) check_cl((call), #call, __LINE__)

static const char *TINY_SRC = "__kernel void tiny(__global float *p) { }\n";
static const char *BUILD_SRC =
    "__kernel void tiny(__global float *p) { }\n"
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

static const char *cl_error_name(cl_int e) {
  switch (e) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no ICD found)";
    default: return "unnamed OpenCL error";
  }
}

static void check_cl(cl_int e, const char *call, int line) {
  if (e == CL_SUCCESS) return;
  fprintf(stderr, "opencl_bench.c:%d: %s failed: %s (%d)\n", line, call, cl_error_name(e), (int)e);
  exit(1);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
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

static void emit(const char *figure, const char *unit, const double *samples, int n, const char *note) {
  printf("{\"impl\": \"opencl-c\", \"figure\": \"%s\", \"unit\": \"%s\", \"better\": \"lower\", \"samples\": [",
         figure, unit);
  for (int i = 0; i < n; i++) printf("%s%.6g", i ? ", " : "", samples[i]);
  printf("], \"note\": ");
  print_json_string(note);
  printf("}\n");
  fflush(stdout);
}

typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  unsigned p, d;
} Pick;

// Devices of platform p, of the given type; none is an answer, not an error.
static cl_uint devices_of(cl_platform_id p, cl_device_type type, cl_device_id *out) {
  cl_uint n = 0;
  cl_int e = clGetDeviceIDs(p, type, MAX_DEVICES, out, &n);
  if (e == CL_DEVICE_NOT_FOUND) return 0;
  CHECK(e);
  return n < MAX_DEVICES ? n : MAX_DEVICES;
}

static Pick pick_from_env(const char *spec, cl_platform_id *platforms, cl_uint np) {
  Pick k;
  cl_device_id devs[MAX_DEVICES];
  if (sscanf(spec, "%u:%u", &k.p, &k.d) != 2 || k.p >= np) {
    fprintf(stderr, "opencl_bench: CUDENO_OPENCL_DEVICE=%s: want P:D with P < %u\n", spec, np);
    exit(2);
  }
  cl_uint nd = devices_of(platforms[k.p], CL_DEVICE_TYPE_ALL, devs);
  if (k.d >= nd) {
    fprintf(stderr, "opencl_bench: CUDENO_OPENCL_DEVICE=%s: platform %u has %u devices\n", spec, k.p, nd);
    exit(2);
  }
  k.platform = platforms[k.p];
  k.device = devs[k.d];
  return k;
}

// Looks for a device of `type` on each platform in turn; the index is within CL_DEVICE_TYPE_ALL's list,
// so that it means the same as in CUDENO_OPENCL_DEVICE.
static int find_first(cl_device_type type, cl_platform_id *platforms, cl_uint np, Pick *k) {
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id all[MAX_DEVICES];
    cl_uint nd = devices_of(platforms[p], CL_DEVICE_TYPE_ALL, all);
    for (cl_uint d = 0; d < nd; d++) {
      cl_device_type t;
      CHECK(clGetDeviceInfo(all[d], CL_DEVICE_TYPE, sizeof t, &t, NULL));
      if (t & type) {
        *k = (Pick){platforms[p], all[d], p, d};
        return 1;
      }
    }
  }
  return 0;
}

static Pick pick_device(void) {
  cl_platform_id platforms[MAX_PLATFORMS];
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(MAX_PLATFORMS, platforms, &np));
  if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
  const char *spec = getenv("CUDENO_OPENCL_DEVICE");
  if (spec != NULL && *spec) return pick_from_env(spec, platforms, np);
  Pick k;
  if (find_first(CL_DEVICE_TYPE_GPU, platforms, np, &k) || find_first(CL_DEVICE_TYPE_ALL, platforms, np, &k)) {
    return k;
  }
  fprintf(stderr, "opencl_bench: no OpenCL device on %u platforms\n", np);
  exit(1);
}

static void describe(const Pick *k, char *out, size_t size) {
  char pname[128], dname[128];
  CHECK(clGetPlatformInfo(k->platform, CL_PLATFORM_NAME, sizeof pname, pname, NULL));
  CHECK(clGetDeviceInfo(k->device, CL_DEVICE_NAME, sizeof dname, dname, NULL));
  snprintf(out, size, "device %u:%u %s (platform %s)", k->p, k->d, dname, pname);
  fprintf(stderr, "opencl_bench: %s\n", out);
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src) {
  cl_int e;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  CHECK(e);
  e = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL);
  if (e != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
    CHECK(e);
  }
  return prog;
}

/* with_event: ask for the launch's event and release it after the finish, as a caller that keeps
   completion events (cudeno's kernel() returning an Event, PyOpenCL's knl()) does. */
static double time_enqueue_finish(cl_command_queue q, cl_kernel k, int count, int with_event) {
  const size_t global = 1;
  double t0 = now_s();
  for (int i = 0; i < count; i++) {
    cl_event ev = NULL;
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, with_event ? &ev : NULL));
    CHECK(clFinish(q));
    if (with_event) CHECK(clReleaseEvent(ev));
  }
  return now_s() - t0;
}

static void bench_enqueue_finish(cl_context ctx, cl_device_id dev, const char *where) {
  const int per_sample = 20000;
  cl_int e;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  CHECK(e);
  cl_program prog = build(ctx, dev, TINY_SRC);
  cl_kernel k = clCreateKernel(prog, "tiny", &e);
  CHECK(e);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float), NULL, &e);
  CHECK(e);
  CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));  // once: the figure is the enqueue, not the argument
  for (int with_event = 0; with_event <= 1; with_event++) {
    time_enqueue_finish(q, k, per_sample / 10, with_event);
    double s[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) s[i] = time_enqueue_finish(q, k, per_sample, with_event) / per_sample * 1e6;
    char note[512];
    snprintf(note, sizeof note, "%s; global 1, local NULL, %s, clFinish after each", where,
             with_event ? "an event, released after the finish" : "no event");
    emit(with_event ? "opencl.enqueue_finish.event" : "opencl.enqueue_finish", "us", s, SAMPLES, note);
  }
  CHECK(clReleaseMemObject(buf));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(prog));
  CHECK(clReleaseCommandQueue(q));
}

static void bench_build(cl_context ctx, cl_device_id dev, const char *where) {
  double s[SAMPLES];
  for (int i = 0; i < SAMPLES; i++) {
    cl_int e;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &BUILD_SRC, NULL, &e);
    CHECK(e);
    double t0 = now_s();
    CHECK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
    s[i] = (now_s() - t0) * 1e3;
    CHECK(clReleaseProgram(prog));
  }
  char note[512];
  snprintf(note, sizeof note,
           "%s; clBuildProgram of tiny + vadd, same source each sample, so a driver's own cache may serve it",
           where);
  emit("opencl.build", "ms", s, SAMPLES, note);
}

int main(void) {
  Pick k = pick_device();
  char where[320];
  describe(&k, where, sizeof where);
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &k.device, NULL, NULL, &e);
  CHECK(e);
  bench_enqueue_finish(ctx, k.device, where);
  bench_build(ctx, k.device, where);
  CHECK(clReleaseContext(ctx));
  return 0;
}
