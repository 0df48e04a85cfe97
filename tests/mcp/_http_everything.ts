import { childEnv, platform } from "../../lib/platform/mod.ts";
import { EVERYTHING } from "./_helpers.ts";

/** A port the kernel just handed out as free (another process may take it first: callers retry). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Starts server-everything over streamable HTTP; resolves once it listens. It takes its port from
 * PORT and cannot report one the kernel chose, so a port taken meanwhile is retried on another free
 * one. Its "listening" line proves nothing (Express calls the listen callback on EADDRINUSE too, then
 * it prints "already in use" and exits): it is up once the kernel shows its process owning a socket
 * listening on the port. `ports` are tried first (tests).
 */
export async function startHttpEverything(ports: number[] = [], attempts = 5) {
  const failures: string[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = ports[attempt] ?? freePort();
    const child = platform.spawn({
      cmd: ["node", EVERYTHING, "streamableHttp"],
      env: childEnv(platform.envAll(), { set: { PORT: String(port) } }),
    });
    let stderr = "";
    // Both streams are read to the end: a closed stdout would kill the server at its next log line.
    const drained = Promise.all([
      (async () => {
        for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
      })(),
      (async () => {
        for await (const _ of child.stdout) { /* discarded */ }
      })(),
    ]).catch(() => {});
    let exited = false;
    void child.status.then(() => (exited = true));
    const deadline = Date.now() + 30_000;
    while (!exited && Date.now() < deadline) {
      if (stderr.includes("listening") && await listensOn(child.pid, port)) {
        return {
          url: `http://127.0.0.1:${port}/mcp`,
          port,
          attempts: attempt + 1,
          stop: async () => (child.kill(), await child.status, await drained),
        };
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill();
    await child.status;
    await drained;
    if (!stderr.includes("already in use")) {
      throw new Error(`server-everything http did not start on port ${port}: ${stderr}`);
    }
    failures.push(`port ${port} in use`);
  }
  throw new Error(`server-everything http did not start after ${attempts} attempts: ${failures.join(", ")}`);
}

/** Whether process `pid` owns a TCP socket listening on `port` (Linux /proc). */
async function listensOn(pid: number, port: number): Promise<boolean> {
  const inodes = new Set<string>();
  try {
    for await (const entry of Deno.readDir(`/proc/${pid}/fd`)) {
      const link = await Deno.readLink(`/proc/${pid}/fd/${entry.name}`).catch(() => "");
      const inode = link.match(/^socket:\[(\d+)\]$/)?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    return false; // gone
  }
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await Deno.readTextFile(table).catch(() => "")).trim().split("\n").slice(1);
    for (const line of lines) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      const LISTEN = "0A";
      if (state === LISTEN && parseInt(local.split(":").at(-1)!, 16) === port && inodes.has(inode)) {
        return true;
      }
    }
  }
  return false;
}
