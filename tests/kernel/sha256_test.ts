import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Sha256 } from "../../src/kernel/sha256.ts";
import { rng as seeded } from "../reliability/_rng.ts";

Deno.test("Sha256 gives FIPS 180-4's digests for its test messages", () => {
  assert.equal(
    new Sha256().update("").hex(),
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
  assert.equal(
    new Sha256().update("abc").hex(),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    new Sha256().update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex(),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    new Sha256().update("a".repeat(1_000_000)).hex(),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
});

Deno.test("Sha256 agrees with node:crypto on random data fed in random pieces", () => {
  const rng = seeded(7);
  for (let round = 0; round < 300; round++) {
    const length = Math.floor(rng() * 700);
    const data = Uint8Array.from({ length }, () => Math.floor(rng() * 256));
    const ours = new Sha256();
    for (let at = 0; at < length;) {
      const piece = Math.min(length - at, Math.floor(rng() * 130));
      ours.update(data.subarray(at, at + piece));
      at += piece;
    }
    assert.equal(ours.hex(), createHash("sha256").update(data).digest("hex"), `length ${length}`);
  }
  const text = 'extern "C" {\n__global__ void k(float *x) { x[0] = 1.5f; } // Ünïcode ✓\n}';
  assert.equal(new Sha256().update(text).hex(), createHash("sha256").update(text).digest("hex"));
});

Deno.test("Sha256 takes no more data after digest()", () => {
  const h = new Sha256().update("abc");
  assert.deepEqual(h.digest(), h.digest());
  assert.throws(() => h.update("d"), { name: "TypeError", message: /after digest\(\)/ });
});
