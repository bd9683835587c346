import assert from "node:assert/strict";
import {
  candidatePaths,
  DIAGNOSE_COMMAND,
  LazyLibrary,
  LibraryNotFoundError,
  loadLibrary,
} from "../../ffi/load.ts";
import { driverSpec } from "../../ffi/cuda.ts";
import { nvrtcSpec } from "../../ffi/nvrtc.ts";
import { cublasSpec } from "../../ffi/cublas.ts";
import { cudnnSpec } from "../../ffi/cudnn.ts";
import { openclSpec } from "../../ffi/opencl.ts";
import { alone } from "../_alone.ts";

// The variables these tests set and unset (CUDENO_LIB*, CUDA_PATH, VIRTUAL_ENV, ...) are the process's:
// another file's Worker opening a library meanwhile would search the wrong places.
const { test } = alone(import.meta.url, "it sets the library search variables", { test: Deno.test });

const spec = {
  what: "a test library",
  env: "CUDENO_TEST_LIB",
  sonames: ["libcudeno-missing.so.1", "libcudeno-missing.so.0"],
  dirs: ["/nonexistent/a", "/nonexistent/stubs"],
  reject: (p: string) => (p.includes("/stubs/") ? "a stub" : undefined),
  hint: "install it",
  symbols: { nothing: { parameters: [], result: "void" } },
} as const;

test("loadLibrary() lists every path tried and the variable to set", () => {
  let err: LibraryNotFoundError | undefined;
  try {
    loadLibrary(spec);
  } catch (e) {
    if (e instanceof LibraryNotFoundError) err = e;
  }
  assert.ok(err !== undefined, "expected a LibraryNotFoundError");
  assert.deepEqual(err.tried.map((t) => t.path), [
    "libcudeno-missing.so.1",
    "libcudeno-missing.so.0",
    "/nonexistent/a/libcudeno-missing.so.1",
    "/nonexistent/a/libcudeno-missing.so.0",
    "/nonexistent/stubs/libcudeno-missing.so.1",
    "/nonexistent/stubs/libcudeno-missing.so.0",
  ]);
  assert.equal(err.tried[4]!.reason, "a stub");
  assert.match(err.message, /Set CUDENO_TEST_LIB to the library's full path, or install it/);
  assert.match(err.message, /\/nonexistent\/a\/libcudeno-missing\.so\.1: /);
});

test("LibraryNotFoundError names each path once and ends with the command that diagnoses the machine", () => {
  let err: unknown;
  try {
    loadLibrary(spec);
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof LibraryNotFoundError);
  const lines = err.message.split("\n");
  for (const { path } of err.tried) {
    const line = lines.find((l) => l.startsWith(`  ${path}: `));
    assert.ok(line !== undefined, `no line for ${path}`);
    assert.equal(line.split(path).length, 2, `"${line}" names ${path} more than once`);
  }
  assert.doesNotMatch(err.message, /Could not open library/);
  assert.equal(lines.at(-1), `To see what this machine has, run ${DIAGNOSE_COMMAND}`);
  assert.match(DIAGNOSE_COMMAND, /deno run -A jsr:@cudeno\/cudeno\/cli info/);
});

test("loadLibrary() tries only the environment override when it is set", () => {
  Deno.env.set("CUDENO_TEST_LIB", "/nonexistent/override.so");
  try {
    assert.deepEqual(candidatePaths(spec), ["/nonexistent/override.so"]);
  } finally {
    Deno.env.delete("CUDENO_TEST_LIB");
  }
});

test("loadLibrary() opens a real library from a folder", () => {
  const lib = loadLibrary({
    ...spec,
    sonames: ["libc.so.6"],
    dirs: [],
    symbols: { getpid: { parameters: [], result: "i32" } },
  });
  assert.equal(lib.symbols.getpid(), Deno.pid);
});

test("LazyLibrary opens nothing until first use and remembers a failure", () => {
  let built = 0;
  const lazy = new LazyLibrary(() => (built++, spec));
  assert.equal(built, 0);
  assert.equal(lazy.available(), false);
  assert.throws(() => lazy.get(), LibraryNotFoundError);
  assert.equal(built, 1);
});

/** Runs `fn` with the environment variables set as given (undefined: unset), then puts them back. */
function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, Deno.env.get(k)]));
  const put = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  };
  put(vars);
  try {
    fn();
  } finally {
    put(saved);
  }
}

const NO_PYTHON = { VIRTUAL_ENV: undefined, CONDA_PREFIX: undefined, CUDA_HOME: undefined };

test("the CUDA driver is nvcuda.dll in System32 on Windows, libcuda.so.1 on Linux", () => {
  withEnv({ CUDENO_LIBCUDA: undefined, SystemRoot: "C:\\Windows" }, () => {
    assert.deepEqual(candidatePaths(driverSpec({}, "windows")), [
      "nvcuda.dll",
      "C:\\Windows\\System32\\nvcuda.dll",
    ]);
    const linux = candidatePaths(driverSpec({}, "linux"));
    assert.equal(linux[0], "libcuda.so.1");
    assert.ok(linux.includes("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
    assert.ok(linux.includes("/usr/lib/wsl/lib/libcuda.so.1"));
    assert.equal(driverSpec({}, "windows").what, "the CUDA driver (nvcuda.dll)");
  });
});

test("NVRTC on Windows is nvrtc64_130_0.dll or nvrtc64_120_0.dll, in CUDA_PATH\\bin\\x64 and CUDA_PATH\\bin", () => {
  withEnv({ ...NO_PYTHON, CUDENO_LIBNVRTC: undefined, CUDA_PATH: "C:\\CUDA\\v13.0" }, () => {
    assert.deepEqual(candidatePaths(nvrtcSpec({}, "windows")), [
      "nvrtc64_130_0.dll",
      "nvrtc64_120_0.dll",
      "C:\\CUDA\\v13.0\\bin\\x64\\nvrtc64_130_0.dll",
      "C:\\CUDA\\v13.0\\bin\\x64\\nvrtc64_120_0.dll",
      "C:\\CUDA\\v13.0\\bin\\nvrtc64_130_0.dll",
      "C:\\CUDA\\v13.0\\bin\\nvrtc64_120_0.dll",
    ]);
    assert.deepEqual(nvrtcSpec({}, "windows").preload, ["nvrtc-builtins64_"]);
  });
});

test("NVRTC on Linux is libnvrtc.so.13 or .12, in the toolkit's lib64 and NVIDIA's wheels", () => {
  withEnv({ ...NO_PYTHON, CUDENO_LIBNVRTC: undefined, CUDA_PATH: "/opt/cuda", VIRTUAL_ENV: "/venv" }, () => {
    const paths = candidatePaths(nvrtcSpec({}, "linux"));
    assert.deepEqual(paths.slice(0, 2), ["libnvrtc.so.13", "libnvrtc.so.12"]);
    assert.ok(paths.includes("/opt/cuda/lib64/libnvrtc.so.13"));
    assert.ok(paths.includes("/usr/local/cuda/lib64/libnvrtc.so.12"));
    assert.ok(paths.includes("/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13"));
    assert.ok(paths.every((p) => !p.includes("\\")));
  });
});

test("cuBLAS on Windows is cublas64_13.dll or cublas64_12.dll, with cuBLASLt preloaded, wheels included", () => {
  withEnv(
    { ...NO_PYTHON, CUDENO_LIBCUBLAS: undefined, CUDA_PATH: undefined, VIRTUAL_ENV: "C:\\venv" },
    () => {
      const spec = cublasSpec("windows");
      assert.deepEqual(candidatePaths(spec), [
        "cublas64_13.dll",
        "cublas64_12.dll",
        "C:\\venv\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\cublas64_13.dll",
        "C:\\venv\\Lib\\site-packages\\nvidia\\cu13\\bin\\x86_64\\cublas64_12.dll",
        "C:\\venv\\Lib\\site-packages\\nvidia\\cublas\\bin\\cublas64_13.dll",
        "C:\\venv\\Lib\\site-packages\\nvidia\\cublas\\bin\\cublas64_12.dll",
      ]);
      assert.deepEqual(spec.preload, ["cublasLt64_"]);
    },
  );
});

test("cuDNN on Linux is libcudnn.so.9, in the toolkit, NVIDIA's wheel and the distribution's folder, its parts preloaded", () => {
  withEnv({ ...NO_PYTHON, CUDENO_LIBCUDNN: undefined, CUDA_PATH: "/opt/cuda", VIRTUAL_ENV: "/venv" }, () => {
    const spec = cudnnSpec("linux");
    const paths = candidatePaths(spec);
    assert.equal(paths[0], "libcudnn.so.9");
    assert.ok(paths.includes("/opt/cuda/lib64/libcudnn.so.9"));
    assert.ok(paths.includes("/venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9"));
    assert.ok(paths.includes("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"));
    assert.ok(spec.preload?.includes("libcudnn_cnn.so.9"));
  });
});

test("OpenCL is OpenCL.dll on Windows, the OpenCL framework on macOS, libOpenCL.so.1 on Linux", () => {
  withEnv({ CUDENO_LIBOPENCL: undefined, SystemRoot: "D:\\Win" }, () => {
    assert.deepEqual(candidatePaths(openclSpec({}, "windows")), [
      "OpenCL.dll",
      "D:\\Win\\System32\\OpenCL.dll",
    ]);
    assert.deepEqual(candidatePaths(openclSpec({}, "darwin")), [
      "/System/Library/Frameworks/OpenCL.framework/OpenCL",
    ]);
    assert.equal(candidatePaths(openclSpec({}, "linux"))[0], "libOpenCL.so.1");
  });
});
