/**
 * Every OpenCL platform and device on this machine.
 *
 *   deno run --allow-ffi --allow-env examples/opencl_devices.ts
 */
import * as cl from "../src/opencl/mod.ts";

for (const platform of cl.getPlatforms()) {
  console.log(`${platform}: ${platform.version}`);
  for (const d of platform.getDevices()) {
    const mib = (x: bigint) => `${(Number(x) / 2 ** 20).toFixed(0)} MiB`;
    console.log(
      `  ${d}: ${d.type}, ${d.computeUnits} compute units, ${mib(d.globalMemory)} global, ${
        Number(d.localMemory) / 1024
      } KiB local`,
    );
    console.log(
      `    ${d.version}; max work-group ${d.maxWorkGroupSize}; fp64 ${d.supportsFloat64 ? "yes" : "no"}`,
    );
  }
}
