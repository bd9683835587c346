/**
 * Build errors and warnings name the user's file and its lines, not the driver's temporary copy, and
 * PoCL's own `1 error generated.` lines stay off standard error.
 */

import assert from "node:assert/strict";
import * as cl from "../../src/opencl/mod.ts";
import { pointAtUserFile } from "../../src/opencl/build_log.ts";
import { openclTest } from "../_backends.ts";
import { cudeno, tempDir } from "../cli/_cli.ts";

const BROKEN = `// a kernel with a missing semicolon on line 3
__kernel void f(__global float *x, int n) {
  int i = get_global_id(0)
  if (i < n) x[i] = n;
}
`;
// PoCL caches builds by their preprocessed source, which has no #warning lines: a kernel of its own
// keeps another test's build log from being returned for this one.
const WARNS = `__kernel void warns_on_line_3(__global float *x, int n) {
  int i = get_global_id(0);
#warning this kernel warns on line 3
  if (i < n) x[i] = n;
}
`;

Deno.test("pointAtUserFile() names the file in PoCL's, NVIDIA's and AMD's forms of a diagnostic", () => {
  assert.equal(
    pointAtUserFile("error: /root/.cache/pocl/kcache/tempfile_JU04m7.cl:3:27: expected ';'", "k.cl"),
    "k.cl:3:27: error: expected ';'",
  );
  assert.equal(
    pointAtUserFile("<kernel>:5:1: error: use of undeclared identifier 'q'\n  q = 1;\n  ^", "a/b.cl"),
    "a/b.cl:5:1: error: use of undeclared identifier 'q'\n  q = 1;\n  ^",
  );
  assert.equal(
    pointAtUserFile("/tmp/OCL4242T7.cl:2:9: warning: unused", "w.cl"),
    "w.cl:2:9: warning: unused",
  );
  assert.equal(pointAtUserFile("error: tempfile_a1.cl:1:1: x", "cost$1.cl"), "cost$1.cl:1:1: error: x");
});

Deno.test("pointAtUserFile() shows a diagnostic PoCL repeats once, and leaves other lines alone", () => {
  const twice = "warning: /p/uncached/tempfile_a1.cl:3:2: hi\nwarning: /p/uncached/tempfile_a1.cl:3:2: hi";
  assert.equal(pointAtUserFile(twice, "k.cl"), "k.cl:3:2: warning: hi");
  assert.equal(
    pointAtUserFile("Device X failed to build the program\n", "k.cl"),
    "Device X failed to build the program\n",
  );
});

openclTest("Program.build() names the program's file and the line and column of an error", () => {
  const ctx = cl.createSomeContext();
  const program = new cl.Program(ctx, BROKEN, { filename: "kernels/broken.cl" });
  try {
    assert.throws(() => program.build(), (e: unknown) => {
      assert.ok(e instanceof cl.OpenCLError);
      assert.equal(e.codeName, "CL_BUILD_PROGRAM_FAILURE");
      assert.match(e.log, /^kernels\/broken\.cl:3:\d+: error: /m);
      assert.match(e.message, /kernels\/broken\.cl:3:\d+: error: /);
      assert.match(e.message, /\(kernels\/broken\.cl, options: ""\)/);
      assert.doesNotMatch(e.log, /tempfile|<kernel>|OCL\d+T/);
      return true;
    });
  } finally {
    program.release();
    ctx.release();
  }
});

openclTest("a Program made from a string is <source> in its errors", () => {
  const ctx = cl.createSomeContext();
  const program = new cl.Program(ctx, "__kernel void f(__global float *x) { x[0] = nothing_here; }");
  try {
    assert.equal(program.filename, "<source>");
    assert.throws(() => program.build(), /<source>:1:\d+: error: .*nothing_here/);
  } finally {
    program.release();
    ctx.release();
  }
});

openclTest("buildLog() after a build that succeeds holds its warnings, naming the file and line", () => {
  const ctx = cl.createSomeContext();
  const program = new cl.Program(ctx, WARNS, { filename: "warns.cl" }).build();
  try {
    assert.match(program.buildLog(), /^warns\.cl:3:\d+: warning: this kernel warns on line 3$/m);
  } finally {
    program.release();
    ctx.release();
  }
});

openclTest("building in a script prints nothing of the compiler's own on standard error", async () => {
  using dir = tempDir();
  const script = `${dir.path}/build.ts`;
  Deno.writeTextFileSync(
    script,
    `import * as cl from ${JSON.stringify(new URL("../../src/opencl/mod.ts", import.meta.url).href)};
const ctx = cl.createSomeContext();
new cl.Program(ctx, ${JSON.stringify(WARNS.replace("line 3", "line 3 " + crypto.randomUUID()))}).build();
try {
  new cl.Program(ctx, ${JSON.stringify(BROKEN)}).build();
} catch (e) {
  console.log(e instanceof cl.OpenCLError ? "build failed" : String(e));
}
console.error("after the builds");
`,
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), "build failed\n");
  assert.equal(stderr, "after the builds\n");
});

openclTest(
  "cudeno run names the .cl file and line of a build error, with nothing else on standard error",
  async () => {
    using dir = tempDir();
    Deno.writeTextFileSync(`${dir.path}/broken.cl`, BROKEN);
    const result = await cudeno(["run", "broken.cl", "--arg", "n=4", "--arg", "x=zeros(4)"], {
      cwd: dir.path,
    });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /^cudeno: Cannot build broken\.cl: the OpenCL compiler reported errors\n/);
    assert.match(result.stderr, /^broken\.cl:3:\d+: error: expected ';'/m);
    assert.doesNotMatch(result.stderr, /generated\.|tempfile/);
  },
);

openclTest("cudeno run shows a build's warnings with --warnings, and nothing without", async () => {
  using dir = tempDir();
  Deno.writeTextFileSync(`${dir.path}/warns.cl`, WARNS);
  const args = ["run", "warns.cl", "--arg", "n=4", "--arg", "x=zeros(4)"];
  const quiet = await cudeno(args, { cwd: dir.path });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, "");
  const shown = await cudeno([...args, "--warnings"], { cwd: dir.path });
  assert.equal(shown.code, 0, shown.stderr);
  // PoCL's clang warns, as `warns.cl:3:2: warning: ...`; NVIDIA's compiler does not warn about this
  // kernel at all, and the runner says so.
  const pocl = cl.createSomeContext().device.platform.name.includes("Portable Computing Language");
  if (pocl) assert.equal(shown.stderr, "warns.cl:3:2: warning: this kernel warns on line 3\n");
  else {
    assert.match(
      shown.stderr,
      /^(warns\.cl:3(:\d+)?: warning: this kernel warns on line 3|warns\.cl: the compiler reported no warnings)\n/,
    );
  }
});

openclTest("builds on several threads at once leave standard error working", async () => {
  using dir = tempDir();
  const mod = JSON.stringify(new URL("../../src/opencl/mod.ts", import.meta.url).href);
  // Programs with warnings, each a kernel of its own name, built in a context of their own.
  const build = (tag: string) =>
    `const ctx = cl.createSomeContext();
  for (let k = 0; k < 2; k++) {
    const source = ${JSON.stringify(WARNS)}.replace("warns_on_line_3", "k_" + ${tag} + "_" + k);
    new cl.Program(ctx, source).build().release();
  }
  ctx.release();`;
  Deno.writeTextFileSync(
    `${dir.path}/worker.ts`,
    `import * as cl from ${mod};
self.onmessage = (e) => {
  ${build("e.data")}
  self.postMessage("built");
};
`,
  );
  Deno.writeTextFileSync(
    `${dir.path}/main.ts`,
    `import * as cl from ${mod};
// The OpenCL loader and PoCL are set up once, here, before other threads ask for devices: the first
// queries made from several threads at once can find no device.
cl.getPlatforms().forEach((p) => p.getDevices());
const workers = [0, 1, 2].map(() => new Worker(new URL("./worker.ts", import.meta.url), { type: "module" }));
const built = workers.map((w, i) => new Promise((resolve) => { w.onmessage = resolve; w.postMessage(i); }));
{
  ${build('"main"')}
}
await Promise.all(built);
for (const w of workers) w.terminate();
console.error("after the builds");
`,
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${dir.path}/main.ts`],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.ok(stderr.endsWith("after the builds\n"), stderr);
});
