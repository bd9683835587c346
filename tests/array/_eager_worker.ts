/**
 * A Worker for `compile_worker_test.ts`: on the backend it is sent, it computes eagerly (a product, a
 * sum read back to the host) round after round until the shared flag is set, checking every result,
 * then posts how many rounds it ran (or the error it met).
 */
import * as ga from "../../src/array/mod.ts";

const scope = self as unknown as {
  onmessage: (event: MessageEvent<{ backend: ga.BackendName; stop: SharedArrayBuffer }>) => void;
  postMessage(report: { started?: boolean; rounds?: number; error?: string }): void;
};

scope.onmessage = (e) => {
  const stop = new Int32Array(e.data.stop);
  try {
    ga.useBackend(e.data.backend);
    let rounds = 0;
    scope.postMessage({ started: true });
    while (Atomics.load(stop, 0) === 0 || rounds < 10) {
      using x = ga.arange(1000, "float32");
      using y = x.mul(2);
      const total = Number(ga.sum(y));
      if (total !== 999_000) throw new Error(`round ${rounds}: sum ${total}, want 999000`);
      rounds++;
    }
    scope.postMessage({ rounds });
  } catch (error) {
    scope.postMessage({ error: String(error) });
  }
};
