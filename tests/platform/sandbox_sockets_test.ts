import assert from "node:assert/strict";
import { platform } from "../../lib/platform/mod.ts";
import { type Box, makeBox, policyFor, removeBox, runInSandbox } from "./_sandbox_box.ts";

// Issue #13 item 9: with network_access = false the sandbox still reached host UNIX sockets
// (ssh-agent, docker.sock, tmux). Each socket here is a real listener on the host. Since #20 item 6
// the seccomp filter refuses every AF_UNIX socket with the network off (sandbox_seccomp_test.ts), so
// the masks, which hold whatever network_access says, are tested here with the network on.

/** Inside the sandbox: connect to each socket and print `<path> connected|<error name>`. */
function probeScript(paths: string[]): string {
  const code = `for (const path of ${JSON.stringify(paths)}) {
    try { (await Deno.connect({ transport: "unix", path })).close(); console.log(path, "connected"); }
    catch (e) { console.log(path, e.name); }
  }`;
  return `'${Deno.execPath()}' eval --no-config '${code.replaceAll("'", "'\\''")}' 2>&1`;
}

function listen(path: string): Deno.UnixListener {
  const listener = Deno.listen({ transport: "unix", path });
  (async () => {
    for await (const conn of listener) conn.close();
  })().catch(() => {});
  return listener;
}

async function withSockets(
  paths: (box: Box) => string[],
  test: (box: Box, sockets: string[]) => Promise<void>,
) {
  const box = await makeBox();
  const sockets = paths(box);
  const listeners: Deno.UnixListener[] = [];
  try {
    for (const socket of sockets) {
      await platform.fs.mkdir(socket.slice(0, socket.lastIndexOf("/")));
      listeners.push(listen(socket));
    }
    await test(box, sockets);
  } finally {
    for (const listener of listeners) listener.close();
    for (const socket of sockets) await platform.fs.remove(socket).catch(() => {});
    await removeBox(box);
  }
}

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e9)}`;

Deno.test("sandboxArgv() hides $SSH_AUTH_SOCK, sockets at the top of the temp directory and agent/tmux socket directories, network on too", async () => {
  // A socket at the top of /tmp, and one at the top of this test's own $TMPDIR (scanned as /tmp
  // is), where the agent-like directories are made too: made in the shared /tmp, they were masked
  // by every sandbox other tests started meanwhile, and one removed between another's argv and its
  // bwrap failed that run (`Can't mkdir`).
  const id = unique();
  let tmp = "";
  const dirs: string[] = [];
  await withSockets(
    (box) => {
      tmp = `${box.root}/tmp`;
      dirs.push(`${tmp}/ssh-trellis${id}`, `${tmp}/tmux-${id.replace(/\D/g, "")}`);
      return [
        `${box.outside}/agent.sock`,
        `/tmp/trellis-${id}.sock`,
        `${tmp}/trellis-${id}.sock`,
        `${dirs[0]}/agent.1`,
        `${dirs[1]}/default`,
      ];
    },
    async (box, sockets) => {
      try {
        const result = await runInSandbox(
          policyFor(box, { networkAccess: true, env: { SSH_AUTH_SOCK: sockets[0], TMPDIR: tmp } }),
          probeScript(sockets),
        );
        assert.deepStrictEqual(result.stdout.trim().split("\n").map((l) => l.split(" ")[1]), [
          "ConnectionRefused",
          "ConnectionRefused",
          "ConnectionRefused",
          "NotFound",
          "NotFound",
        ]);
      } finally {
        for (const dir of dirs) await platform.fs.remove(dir, { recursive: true });
      }
    },
  );
});

Deno.test("sandboxArgv() reaches a socket listed in allow_unix_sockets and no other", async () => {
  await withSockets(
    (box) => [`${box.outside}/docker.sock`, `${box.outside}/agent.sock`],
    async (box, sockets) => {
      const result = await runInSandbox(
        policyFor(box, { env: { SSH_AUTH_SOCK: sockets[1] }, allowUnixSockets: [sockets[0]] }),
        probeScript(sockets),
      );
      assert.equal(
        result.stdout,
        `${sockets[0]} connected\n${sockets[1]} ConnectionRefused\n`,
        result.stderr,
      );
    },
  );
});

Deno.test("sandboxArgv() with the network off gives the command a network namespace of its own (only lo); on, the host's", async () => {
  // The seccomp filter refuses some sockets, but the namespace is what leaves a command nothing to
  // reach (the host's interfaces, its loopback listeners); the neighbour: with the network on the
  // command sees the host's interfaces, or network access would be off whatever the user said.
  const box = await makeBox();
  try {
    const host = (await platform.fs.readTextFile("/proc/net/dev")).split("\n").slice(2)
      .map((line) => line.trim().split(":")[0]).filter(Boolean).sort();
    assert.ok(host.some((name) => name !== "lo"), `this host has no interface but lo: ${host}`);
    const list = "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '";
    const off = await runInSandbox(policyFor(box), list);
    assert.equal(off.stdout.trim(), "lo", off.stderr);
    const on = await runInSandbox(policyFor(box, { networkAccess: true }), list);
    assert.equal(on.stdout.trim(), host.join(" "), on.stderr);
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() shows an empty /run, where host daemons keep their sockets", async () => {
  const box = await makeBox();
  try {
    const host = (await platform.fs.readDir("/run")).length;
    const result = await runInSandbox(
      policyFor(box),
      'echo "$(ls -A /run | wc -l) $(ls -A /var/run/ | wc -l)"',
    );
    assert.deepStrictEqual([host > 0, result.stdout], [true, "0 0\n"], result.stderr);
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() keeps /run visible when it is a kept root (an MCP server's cwd) but still hides what is in it", async () => {
  const box = await makeBox();
  try {
    const dirs = [];
    for (const entry of await platform.fs.readDir("/run")) {
      const path = `/run/${entry.name}`;
      if (entry.isDirectory && (await platform.fs.readDir(path).catch(() => [])).length > 0) dirs.push(path);
    }
    assert.ok(dirs.length > 0, "a non-empty directory under /run on this host");
    const result = await runInSandbox(
      policyFor(box, { readableRoots: ["/run"] }),
      `ls -d /run >/dev/null && for d in ${dirs.join(" ")}; do ls -A "$d" | wc -l; done`,
    );
    assert.equal(result.code, 0, result.stderr);
    assert.deepStrictEqual(result.stdout.trim().split("\n").map(Number), dirs.map(() => 0));
  } finally {
    await removeBox(box);
  }
});
