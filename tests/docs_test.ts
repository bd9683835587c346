/**
 * The TypeScript in README.md and src/jit/README.md runs as written: each ```ts block on its own, in a
 * fresh process started in the repository's root, where `@cudeno/cudeno` names this checkout. Blocks
 * that import the CUDA parts (`/cuda`, `/autoinit`, `/nccl`) need a CUDA device and are ignored where
 * there is none; blocks that use OpenCL or GPU arrays run on OpenCL (PoCL in CI) where there is no CUDA;
 * the rest need no device. `deno task check` type-checks every block (`deno check --doc-only`).
 */

import assert from "node:assert/strict";
import { cudaTest, openclTest } from "./_backends.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DOCUMENTS = ["README.md", "src/jit/README.md"];

/** One fenced TypeScript block: where it starts, its code, and what it needs to run. */
interface Block {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly needs: "cuda" | "opencl" | "nothing";
}

function blocksOf(file: string): Block[] {
  const lines = Deno.readTextFileSync(`${ROOT}${file}`).split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\b/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    assert.ok(end > i, `${file}: the block at line ${i + 1} is not closed`);
    assert.doesNotMatch(lines[i]!, /\bignore\b/, `${file}: the block at line ${i + 1} is marked ignore`);
    const code = lines.slice(i + 1, end).join("\n");
    const needs = /@cudeno\/cudeno\/(cuda|autoinit|nccl)"/.test(code)
      ? "cuda"
      : /@cudeno\/cudeno\/(opencl|array|jit)"|@cudeno\/cudeno"/.test(code)
      ? "opencl"
      : "nothing";
    blocks.push({ file, line: i + 1, code, needs });
    i = end;
  }
  return blocks;
}

async function run(block: Block): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--ext=ts", "-"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(block.code));
  await writer.close();
  const { code, stderr } = await child.output();
  assert.equal(code, 0, `${block.file} line ${block.line} failed:\n${new TextDecoder().decode(stderr)}`);
}

Deno.test("README.md and src/jit/README.md have TypeScript blocks, none of them left unchecked", () => {
  const all = DOCUMENTS.flatMap(blocksOf);
  assert.ok(all.filter((b) => b.file === "README.md").length >= 4);
  assert.ok(all.filter((b) => b.file === "src/jit/README.md").length >= 3);
});

for (const block of DOCUMENTS.flatMap(blocksOf)) {
  const name = `${block.file}: the block at line ${block.line} runs as written`;
  if (block.needs === "cuda") cudaTest(name, () => run(block));
  else if (block.needs === "opencl") openclTest(name, () => run(block));
  else Deno.test(name, () => run(block));
}

/** Lines of the fenced blocks of `language` in a Markdown file. */
function fencedLines(file: string, language: string): string[] {
  const lines = Deno.readTextFileSync(`${ROOT}${file}`).split("\n");
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (!inside && line.startsWith("```")) inside = line.slice(3).trim().split(/\s/)[0] === language;
    else if (inside && /^```\s*$/.test(line)) inside = false;
    else if (inside && line.trim() !== "") out.push(line);
  }
  return out;
}

/** Whether `sh -n` accepts a line: it parses, as pasted, without running anything. */
async function parsesInSh(line: string): Promise<string | undefined> {
  const { code, stderr } = await new Deno.Command("sh", { args: ["-n", "-c", line], stderr: "piped" })
    .output();
  return code === 0 ? undefined : new TextDecoder().decode(stderr).trim();
}

Deno.test("every line of the README's shell blocks parses in sh as pasted", async () => {
  const lines = fencedLines("README.md", "sh");
  assert.ok(lines.some((l) => l.includes("'n=1<<20'")));
  for (const line of lines) assert.equal(await parsesInSh(line), undefined, line);
});

Deno.test("cudeno run --help's examples parse in sh, and it says to quote values and where the .cl twins are", async () => {
  const { RUN_HELP, MAIN_HELP } = await import("../src/cli/help.ts");
  const examples = RUN_HELP.slice(RUN_HELP.indexOf("Examples:")).split("\n").slice(1).map((l) => l.trim());
  assert.ok(examples.length >= 3);
  for (const line of examples) assert.equal(await parsesInSh(line), undefined, line);
  assert.match(RUN_HELP, /Quote values that hold the shell's characters/);
  assert.match(RUN_HELP, /\.cl twin that runs without a GPU/);
  assert.match(MAIN_HELP, /\.cl twin that runs on the CPU/);
});

openclTest("cudeno run --help's examples of .cl files run as written", async () => {
  const { RUN_HELP } = await import("../src/cli/help.ts");
  const examples = RUN_HELP.slice(RUN_HELP.indexOf("Examples:")).split("\n").slice(1).map((l) => l.trim())
    .filter((l) => /^cudeno run kernels\/\w+\.cl /.test(l));
  assert.ok(examples.length >= 2);
  const dir = Deno.makeTempDirSync({ prefix: "cudeno_help_" });
  try {
    Deno.symlinkSync(`${ROOT}kernels`, `${dir}/kernels`);
    for (const line of examples) {
      const command = line.replace(/^cudeno /, `"${Deno.execPath()}" run -A "${ROOT}src/cli/main.ts" `);
      const { code, stderr } = await new Deno.Command("sh", {
        args: ["-c", command],
        cwd: dir,
        stdout: "null",
        stderr: "piped",
      })
        .output();
      assert.equal(code, 0, `${line}\n${new TextDecoder().decode(stderr)}`);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("every .cu file in kernels/ has the .cl twin the README and --help point to", () => {
  const names = [...Deno.readDirSync(`${ROOT}kernels`)].map((e) => e.name);
  const cu = names.filter((n) => n.endsWith(".cu"));
  assert.ok(cu.length > 0);
  const readme = Deno.readTextFileSync(`${ROOT}README.md`);
  for (const file of cu) {
    const twin = file.replace(/\.cu$/, ".cl");
    assert.ok(names.includes(twin), `${file} has no ${twin}`);
    assert.ok(readme.includes(`kernels/${twin}`), `the README does not name kernels/${twin}`);
  }
});
