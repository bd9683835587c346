/**
 * Mistakes in what the user gives `cudeno run`: each is one line `cudeno: ...` on standard error and
 * exit status 2, with no stack trace, found before any device is touched (so the .cu files are
 * checked here too, CUDA or not). A compile error prints the compiler's log and exits 1.
 */

import assert from "node:assert/strict";
import { writeNpy } from "../../src/kernel/npy.ts";
import { cudaProblem, cudaTest, openclTest } from "../_backends.ts";
import { assertUsageExit, cudeno, ROOT, tempDir } from "./_cli.ts";

const run = (...args: string[]) => cudeno(["run", ...args]);

for (const ext of ["cl", "cu"]) {
  const file = (name: string) => `kernels/${name}.${ext}`;

  Deno.test(`cudeno run rejects an unknown kernel in a .${ext} file, naming the ones there are`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--kernel", "saxpi"),
      new RegExp(
        `^cudeno: Cannot run kernel saxpi: kernels/saxpy\\.${ext} declares no such kernel; choose one of saxpy`,
      ),
    );
  });

  Deno.test(`cudeno run rejects an --arg that is not a parameter (.${ext})`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--arg", "b=2"),
      /^cudeno: Cannot use --arg b=2: saxpy has no parameter b \(its parameters are n, a, x, y\)$/,
    );
  });

  Deno.test(`cudeno run says an int parameter needs an integer when given a word (.${ext})`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--arg", "n=abc"),
      /^cudeno: Cannot use --arg n=abc: n \(int\) needs an integer and got abc, which is neither a number nor one of saxpy's parameters \(n, a, x, y\)$/,
    );
  });

  Deno.test(`cudeno run rejects a value that does not parse, with its column (.${ext})`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--arg", "a=2*"),
      /^cudeno: Cannot parse a=2\*: expected a number, a name or '\(', found the end \(column 5\)$/,
    );
  });

  Deno.test(`cudeno run rejects a negative value for an unsigned parameter (.${ext})`, async () => {
    assertUsageExit(
      await run(file("vector_add"), "--arg", "n=-1"),
      /^cudeno: Cannot use n=-1: parameter n is u(nsigned )?int, which cannot be negative$/,
    );
  });

  Deno.test(`cudeno run rejects a fraction for an int parameter (.${ext})`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--arg", "n=2.5"),
      /^cudeno: Cannot use n=2\.5: parameter n is int, which needs an integer$/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--arg", "n=1<<40"),
      /parameter n is int, which holds -2147483648 to 2147483647/,
    );
  });

  Deno.test(`cudeno run rejects a scalar for a pointer and an array for a scalar (.${ext})`, async () => {
    assertUsageExit(
      await run(file("saxpy"), "--arg", "x=2"),
      /parameter x is a pointer to float, so it needs an array/,
    );
    assertUsageExit(await run(file("saxpy"), "--arg", "a=rand(4)"), /parameter a is float, a scalar/);
  });

  Deno.test(`cudeno run rejects truncated, foreign and mistyped .npy files (.${ext})`, async () => {
    using tmp = tempDir();
    const whole = writeNpy(new Float32Array(16));
    Deno.writeFileSync(`${tmp.path}/short.npy`, whole.subarray(0, whole.length - 5));
    Deno.writeTextFileSync(`${tmp.path}/text.npy`, "x,y\n1,2\n");
    Deno.writeFileSync(`${tmp.path}/ints.npy`, writeNpy(new Int32Array(16)));
    assertUsageExit(
      await run(file("saxpy"), "--arg", `x=@${tmp.path}/short.npy`),
      /short\.npy.*(truncated|bytes)/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--arg", `x=@${tmp.path}/text.npy`),
      /text\.npy: not a \.npy file/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--arg", `x=@${tmp.path}/ints.npy`),
      /ints\.npy holds int32, but parameter x points to float \(float32\); convert it with np\.save\(path, array\.astype\(np\.float32\)\)$/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--arg", `x=@${tmp.path}/none.npy`),
      /there is no file \/.*none\.npy$/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--arg", "x=@none.npy"),
      new RegExp(
        `there is no file none\\.npy \\(paths are relative to the current directory, ${
          ROOT.slice(0, -1)
        }\\)$`,
      ),
    );
  });

  Deno.test(`cudeno run rejects a device of the other backend or a bad output path (.${ext})`, async () => {
    const other = ext === "cl" ? "cuda:0" : "opencl:0:0";
    assertUsageExit(await run(file("saxpy"), "--device", other), /^cudeno: Cannot use --device /);
    assertUsageExit(await run(file("saxpy"), "--device", "gpu0"), /give cuda:N .* or opencl:P:D/);
    assertUsageExit(await run(file("saxpy"), "--out", "y=y.csv"), /give a path ending in \.npy .* or \.png/);
    assertUsageExit(
      await run(file("saxpy"), "--out", "y=/no/such/folder/y.npy"),
      /there is no folder \/no\/such\/folder/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--out", "y=y.png"),
      /a PNG needs a non-empty 2-D array, but y has shape \[1048576\]/,
    );
    assertUsageExit(
      await run(file("saxpy"), "--repeat", "0"),
      /^cudeno: Cannot use --repeat 0: give a whole number of at least 1/,
    );
  });
}

Deno.test("cudeno run rejects a missing parameter, naming it with an example", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/scale.cl`;
  Deno.writeTextFileSync(file, "__kernel void scale(__global float *x, float by, uint n) {}\n");
  assertUsageExit(
    await run(file, "--arg", "n=8"),
    /^cudeno: Cannot run scale: no value for x \(__global float \*\), by \(float\); give each with --arg, e\.g\. --arg x=rand\(1024\) --arg by=1\.5$/,
  );
});

Deno.test("cudeno run rejects a missing file, another extension and an unknown flag", async () => {
  assertUsageExit(
    await run("kernels/nothing.cl"),
    /^cudeno: Cannot read kernels\/nothing\.cl: there is no such file/,
  );
  assertUsageExit(
    await run("deno.json"),
    /cudeno reads CUDA C\+\+ files ending in \.cu and OpenCL C files ending in \.cl/,
  );
  assertUsageExit(
    await run("kernels/saxpy.cl", "--frob"),
    /^cudeno: Cannot parse the command line: there is no option --frob; see cudeno run --help$/,
  );
  assertUsageExit(await run("kernels/saxpy.cl", "--kernel"), /option --kernel needs a value/);
});

Deno.test("cudeno run rejects a // cudeno: line that does not parse, naming the file and line", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/k.cl`;
  Deno.writeTextFileSync(
    file,
    "// about\n// cudeno: --arg 'x=ones(4)\n__kernel void k(__global float *x) {}\n",
  );
  assertUsageExit(
    await run(file),
    /Cannot split the \/\/ cudeno: line of .*k\.cl \(line 2\): the quote ' at column \d+ is not closed/,
  );
});

openclTest(
  "cudeno run prints the OpenCL compiler's log and exits 1 when the kernel does not build",
  async () => {
    using tmp = tempDir();
    const file = `${tmp.path}/broken.cl`;
    Deno.writeTextFileSync(file, "__kernel void broken(__global float *x) { x[0] = undefined_name; }\n");
    const result = await run(file, "--arg", "x=zeros(1)");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cudeno: Cannot build .*broken\.cl: the OpenCL compiler reported errors\n/);
    assert.match(result.stderr, /undefined_name/);
    assert.doesNotMatch(result.stderr, /^\s+at /m);
  },
);

cudaTest("cudeno run prints NVRTC's log and exits 1 when the kernel does not compile", async () => {
  using tmp = tempDir();
  const file = `${tmp.path}/broken.cu`;
  Deno.writeTextFileSync(file, "__global__ void broken(float *x) { x[0] = undefined_name; }\n");
  const result = await run(file, "--arg", "x=zeros(1)");
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^cudeno: Cannot compile .*broken\.cu: NVRTC reported errors\n/);
  assert.match(result.stderr, /undefined_name/);
  assert.doesNotMatch(result.stderr, /^\s+at /m);
});

Deno.test({
  name: "cudeno run says CUDA is not usable, with the paths tried, and exits 1 without a stack trace",
  ignore: cudaProblem === undefined,
  fn: async () => {
    const result = await run("kernels/saxpy.cu", "--arg", "n=4");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^cudeno: Cannot run kernels\/saxpy\.cu: CUDA is not usable here: /);
    assert.doesNotMatch(result.stderr, /^\s+at /m);
  },
});

cudaTest("cudeno run rejects a CUDA device that is not there, naming how many there are", async () => {
  assertUsageExit(
    await run("kernels/saxpy.cu", "--device", "cuda:99"),
    /^cudeno: Cannot use CUDA device 99: .*device/,
  );
  assertUsageExit(await run("kernels/saxpy.cu", "--block", "4096"), /block\.x = 4096 exceeds .* limit/);
});

openclTest("cudeno run rejects an OpenCL device that is not there, listing the devices", async () => {
  assertUsageExit(
    await run("kernels/saxpy.cl", "--device", "opencl:9:9"),
    /^cudeno: Cannot use --device opencl:9:9: there is no such device; the OpenCL devices are opencl:0:0 \(/,
  );
  assertUsageExit(
    await run("kernels/saxpy.cl", "--block", "1000000"),
    /a work-group of 1000000 items exceeds/,
  );
});

function withoutInitCwd(): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  return env;
}

Deno.test("deno task cudeno run from a subfolder reads the paths the user typed from that subfolder", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "cudeno", "run", "saxpy.cl", "--list", "--json"],
    cwd: `${ROOT}kernels`,
    // deno task keeps an INIT_CWD it inherits (this suite may itself run under deno task): start afresh.
    clearEnv: true,
    env: { ...withoutInitCwd(), NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const listed = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.deepEqual(listed.kernels.map((k: { name: string }) => k.name), ["saxpy"]);
});

Deno.test("an INIT_CWD outside the folder cudeno runs in, inherited from another task, is not followed", async () => {
  using dir = tempDir();
  Deno.writeTextFileSync(`${dir.path}/here.cl`, "__kernel void here(__global float *x) {}\n");
  const result = await cudeno(["run", "here.cl", "--list"], { cwd: dir.path, env: { INIT_CWD: ROOT } });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /here/);
});

Deno.test("a missing file's message names the folder relative paths are read from", async () => {
  using dir = tempDir();
  assertUsageExit(
    await cudeno(["run", "nothing.cl"], { cwd: dir.path }),
    new RegExp(`there is no such file \\(paths are relative to the current directory, ${dir.path}\\)$`),
  );
});
