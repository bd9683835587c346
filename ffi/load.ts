/**
 * The one loader for every native library cudeno binds: an environment override first, then bare
 * sonames (the dynamic linker's own search), then known folders. When nothing loads, the error lists
 * every path tried, why each failed, the variable to set, and the command that diagnoses the machine.
 * The candidates are known for Linux (where cudeno has been run), Windows (`nvcuda.dll`, `CUDA_PATH\bin`)
 * and macOS (OpenCL's framework); each library's spec takes the system it is for, so the lists can be
 * tested anywhere.
 *
 * @module
 */

/** An operating system, as `Deno.build.os` names it. */
export type HostOS = typeof Deno.build.os;

/** The command that reports which devices and libraries this machine has, named by every load failure. */
export const DIAGNOSE_COMMAND =
  "deno run -A jsr:@cudeno/cudeno/cli info (in a checkout of cudeno: deno task info)";

/** Where to look for one native library. */
export interface LibrarySpec<S extends Deno.ForeignLibraryInterface> {
  /** What the library is, for messages: `"the CUDA driver (libcuda)"`. */
  readonly what: string;
  /** The environment variable that names the library's full path and wins over every other place. */
  readonly env: string;
  /** File names, most preferred first (`libnvrtc.so.13`, `libnvrtc.so.12`). */
  readonly sonames: readonly string[];
  /** Folders to try each soname in after the dynamic linker's own search. */
  readonly dirs: readonly string[];
  /**
   * Dependencies to open from the library's own folder before it, so that its internal `dlopen` of
   * them by soname succeeds (NVRTC's builtins, cuBLAS's cublasLt). Each entry is a file-name prefix;
   * the first file in the folder that starts with it is opened.
   */
  readonly preload?: readonly string[];
  /** A path that must never be used (the driver's stub library), with the reason. */
  readonly reject?: (path: string) => string | undefined;
  /** How to install the library, for the error message. */
  readonly hint: string;
  /** The symbol table. */
  readonly symbols: S;
  /** The system the names and folders are for (default: this one); it decides the path separator. */
  readonly os?: HostOS;
}

/** One failed attempt. */
export interface LoadAttempt {
  /** The path or soname given to `dlopen`. */
  readonly path: string;
  /** Why it did not load. */
  readonly reason: string;
}

/**
 * No candidate for a native library could be opened.
 *
 * @example
 * ```ts
 * import { LibraryNotFoundError } from "@cudeno/cudeno/cuda";
 * try {
 *   // any first use of the CUDA driver
 * } catch (e) {
 *   if (e instanceof LibraryNotFoundError) console.error(e.tried.map((t) => t.path));
 * }
 * ```
 */
export class LibraryNotFoundError extends Error {
  /** Every path or soname tried, in order, with the reason it failed. */
  readonly tried: readonly LoadAttempt[];
  /** The environment variable that overrides the search. */
  readonly envVar: string;

  /** Builds the error from the attempts made: each path once, with why it failed. */
  constructor(what: string, envVar: string, tried: readonly LoadAttempt[], hint: string) {
    const lines = tried.map((t) => `  ${t.path}: ${t.reason}`).join("\n");
    super(
      `Cannot load ${what}: no candidate could be opened. Set ${envVar} to the library's full path, or ${hint}.\nTried:\n${lines}\nTo see what this machine has, run ${DIAGNOSE_COMMAND}`,
    );
    this.name = "LibraryNotFoundError";
    this.tried = tried;
    this.envVar = envVar;
  }
}

/** Reads an environment variable, treating a missing `--allow-env` as unset. */
export function tryGetEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** Why `path` did not open, without Deno's prefix and without the path, which the error shows already. */
function reasonFor(path: string, e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const line = text.split("\n")[0]!.replace(/^(Could not open library: )+/, "").trim();
  return line.startsWith(`${path}: `) ? line.slice(path.length + 2) : line;
}

function openDependencies(
  dir: string,
  prefixes: readonly string[],
  os: HostOS,
  kept: Deno.DynamicLibrary<Record<never, never>>[],
) {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return; // without --allow-read the library may still find its dependencies itself
  }
  for (const prefix of prefixes) {
    const name = names.find((n) => n.startsWith(prefix));
    if (name === undefined) continue;
    try {
      kept.push(Deno.dlopen(joinPath(dir, name, os), {}));
    } catch {
      // the library reports the missing dependency itself when it needs it
    }
  }
}

function dirOf(path: string): string | undefined {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return i > 0 ? path.slice(0, i) : undefined;
}

/** `dir` and `name` joined with `os`'s separator. */
function joinPath(dir: string, name: string, os: HostOS): string {
  return os === "windows" ? `${dir}\\${name}` : `${dir}/${name}`;
}

function rethrowPermission(e: unknown): void {
  if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
    throw new Deno.errors.NotCapable(
      `Cannot load a native library: cudeno needs --allow-ffi (and --allow-env to honour the CUDENO_LIB* overrides)`,
      { cause: e },
    );
  }
}

/** The candidates in the order they are tried: override, bare sonames, then each folder with each soname. */
export function candidatePaths<S extends Deno.ForeignLibraryInterface>(spec: LibrarySpec<S>): string[] {
  const override = tryGetEnv(spec.env);
  if (override !== undefined) return [override];
  const os = spec.os ?? Deno.build.os;
  const out = [...spec.sonames];
  for (const dir of spec.dirs) for (const so of spec.sonames) out.push(joinPath(dir, so, os));
  return [...new Set(out)];
}

/** A loaded library and the path it came from. */
export interface LoadedLibrary<S extends Deno.ForeignLibraryInterface> {
  /** The library's symbols. */
  readonly symbols: Deno.StaticForeignLibraryInterface<S>;
  /** The path or soname that loaded. */
  readonly path: string;
}

/**
 * Opens a library from the first candidate that loads.
 *
 * @throws {LibraryNotFoundError} when no candidate loads; it lists every attempt.
 */
export function loadLibrary<S extends Deno.ForeignLibraryInterface>(spec: LibrarySpec<S>): LoadedLibrary<S> {
  const tried: LoadAttempt[] = [];
  const deps: Deno.DynamicLibrary<Record<never, never>>[] = [];
  for (const path of candidatePaths(spec)) {
    const rejected = spec.reject?.(path);
    if (rejected !== undefined) {
      tried.push({ path, reason: rejected });
      continue;
    }
    const dir = dirOf(path);
    if (dir !== undefined && spec.preload !== undefined) {
      openDependencies(dir, spec.preload, spec.os ?? Deno.build.os, deps);
    }
    try {
      const lib = Deno.dlopen(path, spec.symbols);
      return { symbols: lib.symbols, path };
    } catch (e) {
      rethrowPermission(e);
      tried.push({ path, reason: reasonFor(path, e) });
    }
  }
  for (const dep of deps) dep.close();
  throw new LibraryNotFoundError(spec.what, spec.env, tried, spec.hint);
}

/**
 * The folders where CUDA toolkits put their libraries: under `$CUDA_PATH`, `$CUDA_HOME` and (not on
 * Windows) `/usr/local/cuda`; `lib64` and `targets/<arch>/lib` on Linux, `bin\x64` (CUDA 13) and `bin`
 * on Windows.
 */
export function cudaToolkitDirs(os: HostOS = Deno.build.os): string[] {
  const roots = [
    tryGetEnv("CUDA_PATH"),
    tryGetEnv("CUDA_HOME"),
    os === "windows" ? undefined : "/usr/local/cuda",
  ]
    .filter((r) => r !== undefined);
  return [...new Set(roots)].flatMap((root) =>
    os === "windows"
      ? [`${root}\\bin\\x64`, `${root}\\bin`]
      : [`${root}/lib64`, `${root}/targets/x86_64-linux/lib`, `${root}/targets/sbsa-linux/lib`]
  );
}

/**
 * Folders where NVIDIA's Python wheels put their libraries, under the active virtual environment or
 * conda prefix: `subdirs.linux` below `lib/python3.1x/site-packages/nvidia` on Linux (`cu13/lib`,
 * `cuda_nvrtc/lib`), `subdirs.windows` below `Lib\site-packages\nvidia` on Windows (`cu13\bin\x86_64`,
 * `cuda_nvrtc\bin`).
 */
export function pythonWheelDirs(
  subdirs: { readonly linux: readonly string[]; readonly windows: readonly string[] },
  os: HostOS = Deno.build.os,
): string[] {
  const prefixes = [tryGetEnv("VIRTUAL_ENV"), tryGetEnv("CONDA_PREFIX")].filter((p) => p !== undefined);
  if (os === "windows") {
    return prefixes.flatMap((p) => subdirs.windows.map((sub) => `${p}\\Lib\\site-packages\\nvidia\\${sub}`));
  }
  const sites = prefixes.flatMap((p) =>
    ["3.13", "3.12", "3.11"].map((version) => `${p}/lib/python${version}/site-packages`)
  );
  return sites.flatMap((site) => subdirs.linux.map((sub) => `${site}/nvidia/${sub}`));
}

/** Windows's own DLL folder, `%SystemRoot%\System32`, where the driver puts `nvcuda.dll` and `OpenCL.dll`. */
export function windowsSystemDir(): string {
  return `${tryGetEnv("SystemRoot") ?? "C:\\Windows"}\\System32`;
}

/**
 * A lazily opened library: nothing is opened until `get()` is first called, and a failure is remembered
 * so that every later use reports the same attempts without searching again.
 */
export class LazyLibrary<S extends Deno.ForeignLibraryInterface> {
  #spec: () => LibrarySpec<S>;
  #loaded: LoadedLibrary<S> | undefined;
  #error: unknown;

  /** Remembers how to find the library; opens nothing. */
  constructor(spec: () => LibrarySpec<S>) {
    this.#spec = spec;
  }

  /** The library's symbols, opening it on first use. */
  get(): Deno.StaticForeignLibraryInterface<S> {
    return this.load().symbols;
  }

  /** The loaded library and its path, opening it on first use. */
  load(): LoadedLibrary<S> {
    if (this.#loaded !== undefined) return this.#loaded;
    if (this.#error !== undefined) throw this.#error;
    try {
      this.#loaded = loadLibrary(this.#spec());
      return this.#loaded;
    } catch (e) {
      if (e instanceof LibraryNotFoundError) this.#error = e;
      throw e;
    }
  }

  /** Whether the library loads, without throwing. */
  available(): boolean {
    try {
      this.load();
      return true;
    } catch {
      return false;
    }
  }
}
