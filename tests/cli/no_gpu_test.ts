/**
 * `cudeno run` of a `.cu` file where CUDA cannot be used points to the file's OpenCL twin, which runs
 * without a GPU. CUDA is made unusable on any machine by pointing CUDENO_LIBCUDA at a file that does
 * not exist, so these run on GPU machines too.
 */

import assert from "node:assert/strict";
import { cudeno, ROOT, tempDir } from "./_cli.ts";

const NO_CUDA = { CUDENO_LIBCUDA: "/nonexistent/libcuda.so.1" };

Deno.test("cudeno run of a .cu file without a GPU names the .cl twin and the command that runs it", async () => {
  const result = await cudeno(["run", "kernels/saxpy.cu", "--repeat", "2"], { env: NO_CUDA });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^cudeno: Cannot run kernels\/saxpy\.cu: CUDA is not usable here: /);
  const last = result.stderr.trimEnd().split("\n").at(-1);
  assert.equal(
    last,
    "No GPU? kernels/saxpy.cl is this kernel's OpenCL twin, which runs on any OpenCL device (PoCL on the CPU): cudeno run kernels/saxpy.cl",
  );
  assert.equal(result.stdout, "");
});

Deno.test("cudeno run of a .cu file without a GPU or a .cl twin names no twin", async () => {
  using dir = tempDir();
  Deno.copyFileSync(`${ROOT}kernels/saxpy.cu`, `${dir.path}/alone.cu`);
  const result = await cudeno(["run", "alone.cu"], { cwd: dir.path, env: NO_CUDA });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^cudeno: Cannot run alone\.cu: CUDA is not usable here: /);
  assert.doesNotMatch(result.stderr, /twin|\.cl\b/);
});
