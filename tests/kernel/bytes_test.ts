import assert from "node:assert/strict";
import { formatBytes } from "../../src/kernel/bytes.ts";

Deno.test("formatBytes() writes the largest binary unit with at most two decimals: 16 TiB, not 16384.00 GiB", () => {
  const cases: [number | bigint, string][] = [
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KiB"],
    [1536, "1.5 KiB"],
    [2.5 * 2 ** 20, "2.5 MiB"],
    [2 ** 30, "1 GiB"],
    [150_110_812_160n, "139.8 GiB"],
    [2n ** 44n, "16 TiB"],
    [2n ** 50n, "1 PiB"],
    [2n ** 64n - 1n, "16 EiB"],
  ];
  for (const [bytes, text] of cases) assert.equal(formatBytes(bytes), text, `${bytes} bytes`);
});
