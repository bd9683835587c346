/**
 * cudeno's FFT figures for the GPU benchmark (issue 32 item 6): a 2^24-point complex64 FFT, a 2^26-point
 * float32 rfft, a 4096×4096 complex64 fft2 and 16384 batched 1024-point FFTs, each in GB/s of bytes read
 * and written, timed with device events after a check of the same calls on small inputs against a
 * direct DFT on the host.
 *
 * @module
 */
import * as ga from "../../src/array/mod.ts";
import type { BenchRecord } from "../records.ts";
import type { EventTimes } from "./grad.ts";

function fail(what: string): never {
  throw new Error(`check failed: ${what}`);
}

/** The largest distance between `ga.fft.fft` of `n` points and a float64 DFT, relative to the largest value. */
function dftError(n: number): number {
  const re = ga.random.normal([n], { seed: n }), im = ga.random.normal([n], { seed: n + 1 });
  const z = ga.complex(re, im), x = z.get() as Float32Array, y = ga.fft.fft(z).get() as Float32Array;
  let err = 0, top = 0;
  for (let k = 0; k < n; k++) {
    let sr = 0, si = 0;
    for (let j = 0; j < n; j++) {
      const a = (-2 * Math.PI * ((j * k) % n)) / n, c = Math.cos(a), s = Math.sin(a);
      sr += x[2 * j]! * c - x[2 * j + 1]! * s;
      si += x[2 * j]! * s + x[2 * j + 1]! * c;
    }
    err = Math.max(err, Math.hypot(y[2 * k]! - sr, y[2 * k + 1]! - si));
    top = Math.max(top, Math.hypot(sr, si));
  }
  return err / top;
}

const gbps = (bytes: number) => (ms: number) => bytes / (ms / 1000) / 1e9;

/** Emits `fft.c64.2^24`, `rfft.f32.2^26`, `fft2.c64.4096^2` and `fft.c64.16384x1024`. */
export function fftFigures(emit: (r: BenchRecord) => void, eventTimes: EventTimes): void {
  ga.useBackend("cuda");
  for (const n of [1024, 1009, 4096]) {
    const e = dftError(n);
    if (!(e < 1e-5)) fail(`fft of ${n} points is ${e} off the DFT`);
  }
  const figure = (name: string, samples: number[], note: string) =>
    emit({ impl: "cudeno", figure: name, unit: "GB/s", better: "higher", samples, note });
  const n = 2 ** 24, r = 2 ** 26, side = 4096, rows = 16384, len = 1024;
  const z = ga.complex(ga.random.normal([n], { seed: 1 }), ga.random.normal([n], { seed: 2 }));
  figure(
    "fft.c64.2^24",
    eventTimes(10, () => ga.fft.fft(z).free()).map(gbps(16 * n)),
    "ga.fft.fft(z) of 2^24 complex64; bytes read and written",
  );
  z.free();
  const x = ga.random.normal([r], { seed: 3 });
  figure(
    "rfft.f32.2^26",
    eventTimes(10, () => ga.fft.rfft(x).free()).map(gbps(4 * r + 8 * (r / 2 + 1))),
    "ga.fft.rfft(x) of 2^26 float32; bytes read and written",
  );
  x.free();
  const m = ga.complex(
    ga.random.normal([side, side], { seed: 4 }),
    ga.random.normal([side, side], { seed: 5 }),
  );
  figure(
    "fft2.c64.4096^2",
    eventTimes(10, () => ga.fft.fft2(m).free()).map(gbps(16 * side * side)),
    "ga.fft.fft2(z) of 4096×4096 complex64; bytes read and written once",
  );
  m.free();
  const b = ga.complex(
    ga.random.normal([rows, len], { seed: 6 }),
    ga.random.normal([rows, len], { seed: 7 }),
  );
  figure(
    "fft.c64.16384x1024",
    eventTimes(10, () => ga.fft.fft(b).free()).map(gbps(16 * rows * len)),
    "ga.fft.fft(z) along the last axis of 16384×1024 complex64; bytes read and written",
  );
  b.free();
}
