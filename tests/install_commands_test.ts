/**
 * scripts/install-commands.sh (run by scripts/demo.sh) leaves `deno` and `cudeno` on the PATH of a new
 * login shell, each test in a throwaway HOME: the login shells start with nothing of this process's
 * environment but HOME, so they see only what the script wrote.
 */

import assert from "node:assert/strict";
import { dirname } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;
const decoder = new TextDecoder();

interface Run {
  code: number;
  out: string;
}

async function sh(args: string[], env: Record<string, string>, clear = false): Promise<Run> {
  const result = await new Deno.Command(args[0]!, {
    args: args.slice(1),
    env,
    clearEnv: clear,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: result.code, out: decoder.decode(result.stdout) + decoder.decode(result.stderr) };
}

/** Where this machine's OpenCL was found by an override (so the script's check finds it too). */
const OPENCL_OVERRIDES = Object.fromEntries(
  ["OCL_ICD_VENDORS", "CUDENO_LIBOPENCL"].flatMap((k) => {
    const v = Deno.env.get(k);
    return v === undefined ? [] : [[k, v]];
  }),
);

/**
 * Runs the script in `home` with this test's Deno on PATH, so nothing is installed from npm (nor PoCL
 * from apt: `sh scripts/test.sh` installed it before the tests ran).
 */
function install(home: string, shell: string): Promise<Run> {
  return sh(["sh", `${ROOT}scripts/install-commands.sh`], {
    HOME: home,
    SHELL: shell,
    PATH: `${dirname(Deno.execPath())}:/usr/local/bin:/usr/bin:/bin`,
    DENO_DIR,
    ...OPENCL_OVERRIDES,
  }, true);
}

/** What a new login shell of `shell` in `home` prints for `command`. */
function loginShell(home: string, shell: string, command: string): Promise<Run> {
  return sh([shell, "-lc", command], { HOME: home, DENO_DIR, NO_COLOR: "1" }, true);
}

function withHome(fn: (home: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const home = Deno.makeTempDirSync({ prefix: "cudeno_home_" });
    try {
      await fn(home);
    } finally {
      Deno.removeSync(home, { recursive: true });
    }
  };
}

Deno.test(
  "install-commands.sh in a fresh HOME puts deno and cudeno on a new login shell's PATH and says where",
  withHome(async (home) => {
    const bin = `${home}/.local/bin`;
    // Where /etc/profile already finds a Deno (one installed system-wide), the script links none.
    const hadDeno = (await loginShell(home, "/bin/sh", "command -v deno")).code === 0;
    const run = await install(home, "/bin/sh");
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, new RegExp(`wrote ${bin}/cudeno`));
    assert.match(
      run.out,
      hadDeno ? /a login shell already finds deno/ : new RegExp(`linked ${bin}/deno -> `),
    );
    assert.match(run.out, new RegExp(`added ${bin} to PATH in ${home}/.profile`));
    const found = await loginShell(
      home,
      "/bin/sh",
      `cd "$HOME" && command -v cudeno && deno --version && cudeno run ${ROOT}kernels/saxpy.cl --list`,
    );
    assert.equal(found.code, 0, found.out);
    assert.match(found.out, new RegExp(`^${bin}/cudeno\ndeno \\d+\\.\\d+`));
    if (!hadDeno) assert.equal((await loginShell(home, "/bin/sh", "command -v deno")).out, `${bin}/deno\n`);
    assert.match(found.out, /saxpy {2}\(line \d+\)\n {2}n {2}int/);
  }),
);

Deno.test(
  "install-commands.sh run twice adds the PATH line once, to ~/.bash_profile where bash reads that",
  withHome(async (home) => {
    Deno.writeTextFileSync(`${home}/.bash_profile`, "# the user's own\n");
    for (let i = 0; i < 2; i++) {
      const run = await install(home, "/bin/bash");
      assert.equal(run.code, 0, run.out);
    }
    const profile = Deno.readTextFileSync(`${home}/.bash_profile`);
    assert.equal(profile.match(/# cudeno: deno and cudeno/g)?.length, 1, profile);
    assert.ok(profile.startsWith("# the user's own\n"));
    assert.throws(() => Deno.statSync(`${home}/.profile`), Deno.errors.NotFound);
    const found = await loginShell(home, "/bin/bash", "command -v cudeno");
    assert.equal(found.out.trim(), `${home}/.local/bin/cudeno`);
  }),
);

Deno.test(
  "install-commands.sh leaves a profile alone that already puts ~/.local/bin on PATH (Debian's default)",
  withHome(async (home) => {
    const debian = 'if [ -d "$HOME/.local/bin" ] ; then\n    PATH="$HOME/.local/bin:$PATH"\nfi\n';
    Deno.writeTextFileSync(`${home}/.profile`, debian);
    const run = await install(home, "/bin/sh");
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /a new login shell finds deno and cudeno/);
    assert.equal(Deno.readTextFileSync(`${home}/.profile`), debian);
  }),
);
