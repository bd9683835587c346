import assert from "node:assert/strict";
import { generate } from "../../scripts/gen_api.ts";

Deno.test("the generated functions and methods of src/array/api match the op table (run `deno task gen` after editing it)", async () => {
  const root = new URL("../../", import.meta.url);
  for (const [path, text] of await generate()) {
    const onDisk = await Deno.readTextFile(new URL(path, root));
    assert.ok(onDisk === text, `${path} is stale: run \`deno task gen\` and commit the result`);
  }
});
