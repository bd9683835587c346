/**
 * Test files that cannot share their process with other test files run in a Deno process of their
 * own. `deno test --parallel` runs files in Workers of one process, so whatever is the process's is
 * shared by every file running at the time: environment variables (a test that sets
 * CUDENO_JIT_SIMULATE or CUDENO_OPENCL_DEVICE changes what the others do), the resident set size, the
 * CUDA context's stream-ordered pool and its counters. Such a file registers, in the suite's process,
 * one test that runs the file in a child `deno test` and passes when all of its tests pass there; in
 * the child, its tests register as written.
 */

/** The variable that tells the child which file runs its own tests there. */
const CHILD = "CUDENO_TEST_ALONE";

/**
 * The test registrars `registrars` for the file at `url` (pass `import.meta.url`): as given in the
 * file's own process, and in the suite's process ones that register nothing, after registering the
 * test that runs the file alone. `why` says what the file's tests hold of the process; `problem`, when
 * given, is why none of them can run here (the test is then ignored, with the reason).
 *
 * @example
 * ```ts
 * import { alone } from "./_alone.ts";
 * const { test } = alone(import.meta.url, "it sets CUDENO_CACHE_DIR", { test: Deno.test });
 * test("a test that sets a process-wide variable", () => {});
 * ```
 */
export function alone<R extends Record<string, unknown>>(
  url: string,
  why: string,
  registrars: R,
  problem?: string,
): R {
  if (Deno.env.get(CHILD) === url) return registrars;
  const path = decodeURIComponent(new URL(url).pathname);
  const file = path.startsWith(`${Deno.cwd()}/`) ? path.slice(Deno.cwd().length + 1) : path;
  Deno.test({
    name: `${file}: its tests, in a process of their own (${why})${
      problem === undefined ? "" : ` [ignored: ${problem.split("\n")[0]}]`
    }`,
    ignore: problem !== undefined,
    fn: async () => {
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: ["test", "-A", "--no-check", "--v8-flags=--expose-gc", path],
        env: { [CHILD]: url, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
      if (code !== 0) {
        throw new Error(`${file} failed in its own process (exit code ${code}):\n${text.slice(-8000)}`);
      }
      console.log(text.match(/^ok \|.*$/m)?.[0] ?? text.slice(-500));
    },
  });
  const none = () => {};
  return Object.fromEntries(Object.keys(registrars).map((k) => [k, none])) as unknown as R;
}
