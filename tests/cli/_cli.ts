/**
 * Helpers for the command line's tests: run `cudeno` in a subprocess from the repository's root, make
 * temporary folders, and read back the PNG files it writes.
 */

import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";

/** The repository's root folder. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** What a run of the command line printed, and its exit status. */
export interface CliResult {
  /** The exit status. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** Runs `deno run -A src/cli/main.ts ...args` in the repository's root (or `cwd`). */
export async function cudeno(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}src/cli/main.ts`, ...args],
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** Checks a bad-input exit: status 2 and one line `cudeno: ...` on standard error, with no stack trace. */
export function assertUsageExit(result: CliResult, message: RegExp): void {
  assert.equal(result.code, 2, `expected exit status 2, got ${result.code}; stderr: ${result.stderr}`);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, `expected one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0]!, /^cudeno: /);
  assert.match(lines[0]!, message);
  assert.doesNotMatch(result.stderr, /^\s+at /m);
  assert.equal(result.stdout, "");
}

/** A fresh temporary folder, removed with everything in it at the end of a `using` block. */
export function tempDir(): { path: string } & Disposable {
  const path = Deno.makeTempDirSync({ prefix: "cudeno_cli_test_" });
  return { path, [Symbol.dispose]: () => Deno.removeSync(path, { recursive: true }) };
}

/** An 8-bit image read back from a PNG. */
export interface DecodedPng {
  /** Pixels per row. */
  width: number;
  /** Rows. */
  height: number;
  /** Channels per pixel. */
  channels: number;
  /** The pixels, row by row. */
  data: Uint8Array;
}

/** Decodes the PNGs cudeno writes (8-bit, one IDAT, filter type 0 on every row). */
export function decodePng(png: Uint8Array): DecodedPng {
  assert.deepEqual(Array.from(png.subarray(0, 8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let header: Uint8Array | undefined;
  let idat: Uint8Array | undefined;
  for (let offset = 8; offset < png.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...png.subarray(offset + 4, offset + 8));
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") header = body;
    if (type === "IDAT") idat = body;
    offset += 12 + length;
  }
  assert.ok(header !== undefined && idat !== undefined, "the PNG has IHDR and IDAT chunks");
  const h = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const width = h.getUint32(0);
  const height = h.getUint32(4);
  const channels = ({ 0: 1, 2: 3, 6: 4 } as Record<number, number>)[header[9]!]!;
  const raw = new Uint8Array(inflateSync(idat));
  const stride = width * channels;
  assert.equal(raw.length, (stride + 1) * height);
  const data = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    data.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { width, height, channels, data };
}
