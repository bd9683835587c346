/**
 * cudeno is usable from a folder outside the checkout: `mod.ts` by absolute path, by `file://` URL,
 * through an import-map entry of the user's own `deno.json` and through `links` standing in for the
 * JSR package (README's "Use it in your project"), which works only if nothing that is
 * published depends on this repository's import map (every dependency by a full `npm:`/`jsr:`
 * specifier).
 */

import assert from "node:assert/strict";
import { openclTest } from "./_backends.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Every TypeScript file under the published folders (`deno.json`'s publish excludes the rest). */
function publishedSources(): string[] {
  const files = [`${ROOT}mod.ts`];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  for (const dir of ["src", "ffi"]) walk(`${ROOT}${dir}`);
  return files;
}

Deno.test("no published module imports a bare specifier that only this repository's import map resolves", () => {
  // `from "x";`, `import "x";` and `import("x")`: the specifier's quotes close the statement or call.
  const specifier = /(?:\bfrom\s*|^\s*import\s+|\bimport\s*\(\s*)["']([^"'\s]+)["']\s*[;)]/gm;
  const bare: string[] = [];
  const files = publishedSources();
  for (const file of files) {
    // Doc comments' examples import by the package's name, as a user of the published package does.
    const code = Deno.readTextFileSync(file).split("\n").filter((l) => !/^\s*(\*|\/\/|\/\*)/.test(l));
    for (const match of code.join("\n").matchAll(specifier)) {
      const name = match[1]!;
      if (!/^(\.{1,2}\/|\/|npm:|jsr:|node:|https?:|file:)/.test(name)) {
        bare.push(`${file.slice(ROOT.length)}: "${name}"`);
      }
    }
  }
  assert.ok(files.length > 50, `only ${files.length} files found under src/ and ffi/`);
  assert.deepEqual(
    bare,
    [],
    "write these as full npm:/jsr: specifiers (an import map applies only inside the checkout)",
  );
});

openclTest(
  "mod.ts imported by absolute path, file:// URL, an import-map entry and a link from another folder runs arrays on OpenCL",
  async () => {
    const dir = Deno.makeTempDirSync({ prefix: "cudeno_any_folder_" });
    try {
      const modUrl = new URL("../mod.ts", import.meta.url);
      Deno.writeTextFileSync(
        `${dir}/deno.json`,
        JSON.stringify({
          imports: {
            "cudeno/": new URL("../", import.meta.url).href,
            "@cudeno/cudeno": "jsr:@cudeno/cudeno@^0.1.0",
          },
          links: [ROOT],
        }),
      );
      Deno.writeTextFileSync(
        `${dir}/script.ts`,
        `import * as byPath from ${JSON.stringify(modUrl.pathname)};
import * as byUrl from ${JSON.stringify(modUrl.href)};
import * as byMap from "cudeno/mod.ts";
import * as byLink from "@cudeno/cudeno/array";
const { threadIdx } = byUrl.jit;
const x = byPath.array.asarray([1, 2, 3]).add(1);
const double = byUrl.jit.jit({ a: "f32[]", n: "i32" }, (a, n) => {
  const i = threadIdx.x;
  if (i < n) a[i] = a[i] * 2;
});
const y = byMap.array.asarray([1, 2, 3]);
double.launch({ grid: [1], block: [4] }, y, 3);
console.log(byPath.array.backend(), JSON.stringify(x.tolist()), JSON.stringify(y.tolist()), byPath === byUrl, byLink === byMap.array);
`,
      );
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "script.ts"],
        cwd: dir,
        env: { CUDENO_BACKEND: "opencl", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      assert.equal(new TextDecoder().decode(out.stdout), "opencl [2,3,4] [2,4,6] true true\n");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
);
