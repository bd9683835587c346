import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

async function sources(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  const walk = async (rel: string) => {
    for await (const e of Deno.readDir(new URL(rel, ROOT))) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory) await walk(child);
      else if (e.name.endsWith(".ts")) {
        out.push({ path: child, text: await Deno.readTextFile(new URL(child, ROOT)) });
      }
    }
  };
  await walk(dir);
  return out;
}

function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

Deno.test("nothing in src/ or ffi/ evaluates strings as JavaScript or runs a program", async () => {
  const offenders = [...(await sources("src")), ...(await sources("ffi"))]
    .filter((f) =>
      // `eval(` as a call of the global (nn's `Module.eval()`, PyTorch's evaluation mode, is a method).
      /(?<![.\w])eval\s*\((?!\)\s*:)|new\s+Function\s*\(|\bDeno\.Command\b|\bDeno\.run\b|child_process/.test(
        code(f.text),
      )
    )
    .map((f) => f.path);
  assert.deepEqual(offenders, []);
});

Deno.test("only ffi/ opens native libraries", async () => {
  const offenders = (await sources("src")).filter((f) => /Deno\.dlopen/.test(code(f.text))).map((f) =>
    f.path
  );
  assert.deepEqual(offenders, []);
});

Deno.test("importing mod.ts opens no native library", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `import "${new URL("mod.ts", ROOT).href}"; console.log("imported");`],
    env: { CUDENO_LIBCUDA: "/nonexistent/libcuda.so.1", CUDENO_LIBOPENCL: "/nonexistent/libOpenCL.so.1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "imported");
});
