/**
 * The sandbox and the file tools' reads on whichever runtime runs it, printed as JSON:
 * sandbox_runtime_test.ts runs it under Deno and under Bun (the binary's runtime).
 */
import { createServer } from "node:net";
import {
  detectSandbox,
  platform,
  readRegularChunks,
  readRegularFile,
  runCommand,
  sandboxArgv,
} from "../../lib/platform/mod.ts";

const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-sandbox-runtime-"));
const env = { PATH: "/usr/bin:/bin" };
try {
  await platform.fs.mkdir(`${root}/ws`);
  await platform.fs.mkdir(`${root}/outside`);
  await runCommand(platform, { cmd: ["mkfifo", `${root}/ws/pipe`], env });
  const fifo = await readRegularFile(`${root}/ws/pipe`).then(() => "read", (e) => `${e.code}: ${e.message}`);
  await platform.fs.writeFile(`${root}/ws/big`, new Uint8Array(3 * 1024 * 1024 + 5).fill(97));
  const sizes: number[] = [];
  for await (const chunk of readRegularChunks(`${root}/ws/big`)) sizes.push(chunk.length);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(`${root}/outside/agent.sock`, resolve));
  const status = await detectSandbox(platform);
  if (!status.available) throw new Error(status.reason);
  const policy = {
    mode: "workspace-write" as const,
    writableRoots: [`${root}/ws`],
    networkAccess: false,
    cwd: `${root}/ws`,
    env: { SSH_AUTH_SOCK: `${root}/outside/agent.sock` },
  };
  const script = `mount -o remount,rw,bind / 2>/dev/null; (echo x > ${root}/outside/file) 2>/dev/null; ` +
    `(echo x > .mcp.json) 2>/dev/null; grep CapEff /proc/self/status; echo ok > made`;
  const argv = sandboxArgv(["/bin/sh", "-c", script], policy, status);
  const run = await runCommand(platform, { cmd: argv, env });
  server.close();
  console.log(JSON.stringify({
    fifo,
    sizes,
    agentMasked: argv.join(" ").includes(`--ro-bind /dev/null ${root}/outside/agent.sock`),
    stdout: run.stdout,
    outside: (await platform.fs.readDir(`${root}/outside`)).map((e) => e.name).sort(),
    ws: (await platform.fs.readDir(`${root}/ws`)).map((e) => e.name).sort(),
  }));
} finally {
  await platform.fs.remove(root, { recursive: true });
}
