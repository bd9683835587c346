/**
 * The compile cache: compiled kernels kept in memory and on disk, keyed by a SHA-256 of everything
 * that affects the result. Disk entries carry their payload's length and checksum, so a truncated or
 * damaged entry is detected and recompiled, never loaded; they are written to a temporary file and
 * renamed into place, so two processes compiling the same kernel at once both succeed.
 *
 * `CUDENO_CACHE_DIR` moves the disk cache (default `$XDG_CACHE_HOME/cudeno` or `~/.cache/cudeno`);
 * `CUDENO_DISABLE_CACHE=1` turns the disk cache off.
 *
 * @module
 */

import { Sha256 } from "./sha256.ts";
import { tryGetEnv } from "../../ffi/load.ts";

const MAGIC = new TextEncoder().encode("CUDENO2\n");
/** The magic, then the payload's length and checksum (32-bit little-endian each). */
const HEADER = MAGIC.length + 8;

/** SHA-256 of `data` as lowercase hex. */
export function sha256Hex(...parts: readonly (string | Uint8Array)[]): string {
  const h = new Sha256();
  for (const p of parts) {
    h.update(p);
    h.update("\u0000");
  }
  return h.hex();
}

/**
 * A 32-bit checksum of `data` (FNV-1a over little-endian 32-bit words, then the last bytes): it tells a
 * damaged entry from an intact one in microseconds, where a SHA-256 of a cubin in JavaScript took
 * 0.4 ms of a cached first call. The entry's name is its key's SHA-256; the checksum only guards the
 * bytes.
 */
function checksum(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const words = data.length >>> 2;
  let h = 0x811c9dc5;
  for (let i = 0; i < words; i++) h = Math.imul(h ^ view.getUint32(4 * i, true), 0x01000193);
  for (let i = 4 * words; i < data.length; i++) h = Math.imul(h ^ data[i]!, 0x01000193);
  return h >>> 0;
}

/** The folder the disk cache lives in, or undefined when it is turned off. */
export function cacheDirectory(): string | undefined {
  if (tryGetEnv("CUDENO_DISABLE_CACHE") === "1") return undefined;
  const explicit = tryGetEnv("CUDENO_CACHE_DIR");
  if (explicit !== undefined) return explicit;
  const xdg = tryGetEnv("XDG_CACHE_HOME");
  if (xdg !== undefined) return `${xdg}/cudeno`;
  const home = tryGetEnv("HOME");
  return home === undefined ? undefined : `${home}/.cache/cudeno`;
}

/** Where a lookup was answered. */
export type CacheSource = "memory" | "disk" | "none";

/** Frames a payload as a disk entry: magic, the payload's length and checksum, payload. */
export function frameEntry(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + payload.length);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(MAGIC.length, payload.length, true);
  view.setUint32(MAGIC.length + 4, checksum(payload), true);
  out.set(payload, HEADER);
  return out;
}

/**
 * The payload of a disk entry, or undefined when the entry is damaged (wrong magic, a length other
 * than its own, a checksum mismatch).
 */
export function unframeEntry(entry: Uint8Array): Uint8Array | undefined {
  if (entry.length < HEADER) return undefined;
  for (let i = 0; i < MAGIC.length; i++) if (entry[i] !== MAGIC[i]) return undefined;
  const view = new DataView(entry.buffer, entry.byteOffset, entry.length);
  if (view.getUint32(MAGIC.length, true) !== entry.length - HEADER) return undefined;
  const payload = entry.slice(HEADER);
  return view.getUint32(MAGIC.length + 4, true) === checksum(payload) ? payload : undefined;
}

/**
 * One kind of compiled artefact (CUDA cubins, OpenCL binaries), cached in memory and on disk.
 *
 * @example
 * ```ts
 * import { CompileCache } from "@cudeno/cudeno/cuda";
 * const cache = new CompileCache("example");
 * const key = CompileCache.key("source", "options");
 * const { payload } = cache.getOrCompute(key, () => new TextEncoder().encode("compiled"));
 * ```
 */
export class CompileCache {
  /** The artefact kind, also the sub-folder on disk. */
  readonly kind: string;
  #memory = new Map<string, Uint8Array>();

  /** A cache for artefacts of `kind`. */
  constructor(kind: string) {
    this.kind = kind;
  }

  /** The key for everything that determines an artefact. */
  static key(...parts: readonly (string | Uint8Array)[]): string {
    return sha256Hex(...parts);
  }

  #path(key: string): string | undefined {
    const dir = cacheDirectory();
    return dir === undefined ? undefined : `${dir}/${this.kind}/${key.slice(0, 2)}/${key}`;
  }

  /** Looks `key` up in memory, then on disk; a damaged disk entry counts as a miss. */
  get(key: string): { payload: Uint8Array; source: CacheSource } | undefined {
    const hit = this.#memory.get(key);
    if (hit !== undefined) return { payload: hit, source: "memory" };
    const path = this.#path(key);
    if (path === undefined) return undefined;
    let entry: Uint8Array;
    try {
      entry = Deno.readFileSync(path);
    } catch {
      return undefined;
    }
    const payload = unframeEntry(entry);
    if (payload === undefined) return undefined;
    this.#memory.set(key, payload);
    return { payload, source: "disk" };
  }

  /** Stores `payload` under `key` in memory and, when the disk cache is on and writable, on disk. */
  put(key: string, payload: Uint8Array): void {
    this.#memory.set(key, payload);
    const path = this.#path(key);
    if (path === undefined) return;
    const dir = path.slice(0, path.lastIndexOf("/"));
    const temp = `${path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
    try {
      Deno.mkdirSync(dir, { recursive: true });
      Deno.writeFileSync(temp, frameEntry(payload));
      Deno.renameSync(temp, path);
    } catch {
      // a read-only or missing cache folder only costs a recompile next time
      try {
        Deno.removeSync(temp);
      } catch {
        // nothing was written
      }
    }
  }

  /** Returns the cached artefact for `key`, computing and storing it on a miss. */
  getOrCompute(key: string, compute: () => Uint8Array): { payload: Uint8Array; source: CacheSource } {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const payload = compute();
    this.put(key, payload);
    return { payload, source: "none" };
  }

  /** Forgets the in-memory entries (the disk stays), so the next lookup reads the disk. */
  clearMemory(): void {
    this.#memory.clear();
  }
}
