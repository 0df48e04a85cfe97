/**
 * Run as a subprocess by read_file_test.ts: reads `path` with read_file (offset and limit from argv)
 * and prints the output's first line, its last line and this process's peak RSS (VmHWM, kB).
 */
import { platform } from "../../lib/platform/mod.ts";
import { createBuiltinTools } from "../../lib/tools/mod.ts";

const [path, offset, limit] = Deno.args;
const dir = path.slice(0, path.lastIndexOf("/"));
const profile = {
  sandboxMode: "workspace-write" as const,
  approvalPolicy: "on-request" as const,
  workspace: dir,
  writableRoots: [dir],
  readableRoots: [],
  networkAccess: false,
};
const tools = createBuiltinTools({ platform, profile, sandbox: { available: false, reason: "not used" } });
const read = tools.find((t) => t.name === "read_file")!;
const result = await read.run(read.parseArguments({ path, offset: Number(offset), limit: Number(limit) }), {
  callId: "c",
  cwd: dir,
  signal: new AbortController().signal,
  emit: () => {},
  escalated: false,
});
const lines = result.output.split("\n");
const hwm = /VmHWM:\s+(\d+) kB/.exec(await Deno.readTextFile("/proc/self/status"))![1];
console.log(
  JSON.stringify({ status: result.status, first: lines[0], last: lines.at(-1), peakKb: Number(hwm) }),
);
