/**
 * `deno task info [--json] [--require cuda|opencl]`: the CUDA and OpenCL devices here and the one
 * cudeno would use; the same report as `cudeno info` (see src/cli/info.ts for the JSON's fields).
 * With `--require`, exits with status 1 when that backend has no usable device.
 *
 * @module
 */

import { main } from "../src/cli/main.ts";

if (import.meta.main) Deno.exit(await main(["info", ...Deno.args]));
