/**
 * The machine a run measures: its GPU and driver, the versions of the tools and libraries the producers
 * use, and where on the host's CPUs the producers run.
 * @module
 */
import { probe } from "./processes.ts";

export interface Machine {
  gpu: string | null;
  driver: string | null;
  versions: Record<string, string | null>;
  /** How the producers are placed on the host's CPUs, as the report says it. */
  placement: string;
  /** The CPU list every producer runs on (`taskset -c`), or null where they are not pinned. */
  cpus: string | null;
}

async function readText(path: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch {
    return null;
  }
}

/**
 * Pins every producer to the CPUs of the GPU's NUMA node, where the host has more than one node: a
 * pageable copy runs through the CPU and is slower from memory on the far node, so unpinned producers
 * would differ by where the scheduler put them, not by what they do.
 */
async function placeProducers(): Promise<{ placement: string; cpus: string | null }> {
  const busId = await probe(["nvidia-smi", "--query-gpu=pci.bus_id", "--format=csv,noheader"]);
  // nvidia-smi says 00000000:19:00.0; sysfs names the device 0000:19:00.0, in lower case.
  const sysfs = busId ? `/sys/bus/pci/devices/${busId.slice(-12).toLowerCase()}` : null;
  const node = sysfs ? Number(await readText(`${sysfs}/numa_node`) ?? "-1") : -1;
  const entries = await Array.fromAsync(Deno.readDir("/sys/devices/system/node")).catch(() => []);
  const nodes = entries.filter((e) => /^node\d+$/.test(e.name)).length;
  if (nodes < 2) return { placement: "producers not pinned (one NUMA node)", cpus: null };
  if (node < 0) return { placement: "producers not pinned (the GPU's NUMA node is not known)", cpus: null };
  const cpus = await readText(`/sys/devices/system/node/node${node}/cpulist`);
  if (!cpus || (await probe(["taskset", "-c", cpus, "true"])) === null) {
    return {
      placement: `producers not pinned (taskset to node ${node}'s CPUs ${cpus ?? "?"} failed)`,
      cpus: null,
    };
  }
  return { placement: `producers pinned to CPUs ${cpus} (NUMA node ${node}, the GPU's)`, cpus };
}

function pythonVersion(module: string): Promise<string | null> {
  return probe(["python3", "-c", `import ${module}; print(${module}.__version__)`]);
}

export async function inspectMachine(): Promise<Machine> {
  const smi = await probe(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"]);
  const [gpu, driver] = smi ? smi.split(",").map((s) => s.trim()) : [null, null];
  const versions: Record<string, string | null> = {
    deno: Deno.version.deno,
    gcc: await probe(["gcc", "-dumpfullversion"]),
    python: await probe(["python3", "-c", "import sys; print(sys.version.split()[0])"]),
    numpy: await pythonVersion("numpy"),
    cupy: await pythonVersion("cupy"),
    torch: await pythonVersion("torch"),
    jax: await pythonVersion("jax"),
  };
  return { gpu: gpu ?? null, driver: driver ?? null, versions, ...await placeProducers() };
}

/** `cmd` run on the CPUs `cpus` (see {@link placeProducers}), or as it is where they are null. */
export function pinned(cmd: string[], cpus: string | null): string[] {
  return cpus === null ? cmd : ["taskset", "-c", cpus, ...cmd];
}
