import assert from "node:assert/strict";
import { parseRunFlags } from "../../src/cli/args.ts";
import { defaultWords, mergeFlags, splitWords } from "../../src/cli/defaults.ts";
import { UsageError } from "../../src/cli/usage_error.ts";

const flags = (words: string[]) => parseRunFlags(words, "test").flags;

Deno.test("splitWords() splits at spaces and keeps quoted text together", () => {
  assert.deepEqual(splitWords(" --arg  n=1<<20\t--arg 'x = rand(n)' ", "a line"), [
    "--arg",
    "n=1<<20",
    "--arg",
    "x = rand(n)",
  ]);
  assert.deepEqual(splitWords(`--out "img=a \\"b\\".png" x=""`, "a line"), ["--out", 'img=a "b".png', "x="]);
  assert.deepEqual(splitWords(String.raw`a\ b 'it''s'`, "a line"), ["a b", "its"]);
  assert.deepEqual(splitWords("", "a line"), []);
});

Deno.test("splitWords() rejects a quote that is not closed, naming its column", () => {
  assert.throws(() => splitWords("--arg 'x=rand(n)", "the line"), (e: unknown) => {
    assert.ok(e instanceof UsageError);
    assert.equal(e.message, "Cannot split the line: the quote ' at column 7 is not closed; close it with '");
    return true;
  });
  assert.throws(() => splitWords("a \\", "the line"), UsageError);
});

Deno.test("defaultWords() reads every // cudeno: line of the file's leading comments, and no other", () => {
  const source = [
    "",
    "// cudeno: --kernel k --arg n=8",
    "// a description",
    "//cudeno: --arg 'x=ones(n)'",
    "#include <x.h>",
    "// cudeno: --arg ignored=1",
  ].join("\n");
  assert.deepEqual(defaultWords(source, "k.cu"), ["--kernel", "k", "--arg", "n=8", "--arg", "x=ones(n)"]);
  assert.deepEqual(defaultWords("__global__ void k() {}\n// cudeno: --arg n=1\n", "k.cu"), []);
});

Deno.test("mergeFlags() lets the command line override and extend the defaults by name", () => {
  const defaults = flags([
    "--kernel",
    "saxpy",
    "--arg",
    "n=1<<20",
    "--arg",
    "a=2",
    "--out",
    "y=y.npy",
    "--grid",
    "4",
    "--block",
    "256",
    "--shape",
    "2,3",
  ]);
  const merged = mergeFlags(
    defaults,
    flags(["--arg", "n=1000", "--arg", "x=rand(n)", "--global", "1024", "--shape", "3,2"]),
  );
  assert.equal(merged.kernel, "saxpy");
  assert.deepEqual(merged.arg, ["n=1000", "a=2", "x=rand(n)"]);
  assert.deepEqual(merged.out, ["y=y.npy"]);
  assert.deepEqual(merged.shape, ["3,2"]);
  assert.equal(merged.grid, undefined, "launch sizes from the command line replace all of the defaults'");
  assert.equal(merged.block, undefined);
  assert.equal(merged.global, "1024");
});

Deno.test("mergeFlags() drops the defaults when the command line picks another kernel", () => {
  const given = flags(["--kernel", "other", "--arg", "n=1"]);
  assert.equal(mergeFlags(flags(["--kernel", "saxpy", "--arg", "a=2"]), given), given);
});
