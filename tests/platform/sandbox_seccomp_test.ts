import assert from "node:assert/strict";
import { platform, runCommand, sandboxArgv } from "../../lib/platform/mod.ts";
import { seccompProgram } from "../../lib/platform/sandbox_seccomp.ts";
import { type Box, makeBox, NOBODY, policyFor, removeBox, runInSandbox, runtime } from "./_sandbox_box.ts";

// Issue #20 items 6 and 12, under real bwrap as root and as uid 65534: the seccomp filter keeps a
// sandbox with the network off from connecting to any host UNIX socket (the masks cover only the
// well-known socket directories), and no sandboxed call can leave a setuid or setgid file behind.

const PYTHON = "/usr/bin/python3";
const USERS = [["root", undefined], ["nobody", NOBODY]] as const;

/** Python inside: connect to each path, then a socketpair; one line each, `ok` or the errno name. */
function connectScript(paths: string[]): string {
  const code = `import errno, socket
for path in ${JSON.stringify(paths)}:
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); s.close(); print("connected")
    except OSError as e:
        print(errno.errorcode[e.errno])
a, b = socket.socketpair(); a.send(b"x"); print("pair", b.recv(1).decode())`;
  return `${PYTHON} -c '${code.replaceAll("'", "'\\''")}'`;
}

/** Listeners anyone may connect to: one in a home-like directory, one in the real /var/tmp. */
async function withHostSockets(test: (box: Box, sockets: string[]) => Promise<void>) {
  const box = await makeBox();
  const home = `${box.root}/home/.cache`;
  await platform.fs.mkdir(`${box.root}/home`);
  await platform.fs.mkdir(home);
  await platform.fs.chmod(`${box.root}/home`, 0o755);
  await platform.fs.chmod(home, 0o755);
  const sockets = [`${home}/agent.sock`, `/var/tmp/trellis-test-${crypto.randomUUID()}.sock`];
  const listeners = sockets.map((path) => Deno.listen({ transport: "unix", path }));
  for (const listener of listeners) {
    (async () => {
      for await (const conn of listener) conn.close();
    })().catch(() => {});
  }
  try {
    for (const socket of sockets) await platform.fs.chmod(socket, 0o777);
    await test(box, sockets);
  } finally {
    for (const listener of listeners) listener.close();
    for (const socket of sockets) await platform.fs.remove(socket).catch(() => {});
    await removeBox(box);
  }
}

for (const [who, as] of USERS) {
  Deno.test(`sandboxArgv() with the network off refuses a connect to host sockets in $HOME and /var/tmp as ${who}`, async () => {
    await withHostSockets(async (box, sockets) => {
      // The sockets are live and open to this user outside the sandbox.
      const outside = await runCommand(platform, {
        cmd: [...(as ?? []), "/bin/sh", "-c", connectScript(sockets)],
        env: { PATH: "/usr/bin:/bin" },
      });
      assert.equal(outside.stdout, "connected\nconnected\npair x\n", outside.stderr);
      const policy = policyFor(box, { env: { HOME: `${box.root}/home` } });
      const inside = await runInSandbox(policy, connectScript(sockets), { as: as && [...as] });
      // socketpair still works: it reaches nothing.
      assert.equal(inside.stdout, "EPERM\nEPERM\npair x\n", inside.stderr);
    });
  });

  Deno.test(`sandboxArgv() with the network on still connects to those sockets, as today, as ${who}`, async () => {
    await withHostSockets(async (box, sockets) => {
      const policy = policyFor(box, { networkAccess: true, env: { HOME: `${box.root}/home` } });
      const inside = await runInSandbox(policy, connectScript(sockets), { as: as && [...as] });
      assert.equal(inside.stdout, "connected\nconnected\npair x\n", inside.stderr);
    });
  });
}

/** Every way a process makes a setuid/setgid file, each in its own file; then a plain chmod +x. */
const SETUID_SCRIPT = `cp /bin/sh a; chmod u+s a 2>/dev/null
cp /bin/sh b; chmod 4755 b 2>/dev/null
cp /bin/sh c; chmod g+s c 2>/dev/null
${PYTHON} -c '
import os
for name, make in [("d", lambda: os.close(os.open("d", os.O_CREAT | os.O_WRONLY, 0o4755))),
                   ("e", lambda: os.mknod("e", 0o104755)),
                   ("f", lambda: (open("f", "w").close(), os.chmod("f", 0o6755))),
                   ("g", lambda: (open("g", "w").close(), os.chmod(os.open("g", os.O_RDONLY), 0o4755)))]:
    try:
        make()
    except OSError as e:
        print(name, e.strerror)
'
cp /bin/sh plain; chmod 755 plain && ./plain -c 'echo plain runs'`;

/** Files under `dir` that carry the setuid or setgid bit. */
async function setidFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await platform.fs.readDir(dir)) {
    const info = await platform.fs.lstat(`${dir}/${entry.name}`);
    if (info && (info.mode & 0o6000) !== 0) found.push(entry.name);
  }
  return found;
}

for (const [who, as] of USERS) {
  Deno.test(`sandboxArgv() leaves no setuid or setgid file in the workspace as ${who}, and chmod +x still works`, async () => {
    const box = await makeBox();
    try {
      const result = await runInSandbox(policyFor(box), SETUID_SCRIPT, { as: as && [...as] });
      assert.equal(
        result.stdout,
        "d Operation not permitted\ne Operation not permitted\nf Operation not permitted\n" +
          "g Operation not permitted\nplain runs\n",
        result.stderr,
      );
      assert.deepStrictEqual(await setidFiles(box.ws), []);
      const plain = await platform.fs.lstat(`${box.ws}/plain`);
      assert.equal((plain!.mode & 0o7777).toString(8), "755");
    } finally {
      await removeBox(box);
    }
  });
}

Deno.test("sandboxArgv() binds the writable roots nosuid and nodev", async () => {
  const box = await makeBox();
  try {
    const result = await runInSandbox(policyFor(box), "cat /proc/self/mountinfo");
    const line = result.stdout.split("\n").findLast((l) => l.split(" ")[4] === box.ws);
    assert.ok(line, result.stdout);
    assert.deepStrictEqual(
      line.split(" ")[5].split(",").filter((o) => o === "rw" || o === "nosuid" || o === "nodev"),
      ["rw", "nosuid", "nodev"],
    );
  } finally {
    await removeBox(box);
  }
});

Deno.test("seccompProgram() checks the arch first and ends in allow, EPERM and ENOSYS returns", () => {
  for (const arch of ["x86_64", "aarch64"] as const) {
    for (const denyUnixSockets of [false, true]) {
      const bytes = seccompProgram(arch, { denyUnixSockets });
      const view = new DataView(bytes.buffer);
      const insn = (i: number) => [view.getUint16(i * 8, true), view.getUint32(i * 8 + 4, true)];
      const n = bytes.length / 8;
      assert.deepStrictEqual(insn(0), [0x20, 4]); // load seccomp_data.arch
      assert.deepStrictEqual(insn(1)[1], arch === "x86_64" ? 0xc000003e : 0xc00000b7);
      assert.deepStrictEqual([insn(n - 3), insn(n - 2), insn(n - 1)], [
        [0x06, 0x7fff0000],
        [0x06, 0x00050001],
        [0x06, 0x00050026],
      ]);
      const socketNr = arch === "x86_64" ? 41 : 198;
      const checksSocket = [...Array(n).keys()].some((i) => insn(i)[0] === 0x15 && insn(i)[1] === socketNr);
      assert.equal(checksSocket, denyUnixSockets);
    }
  }
});

Deno.test("sandboxArgv() keeps the seccomp filter's directory read-only when a writable root holds it", async () => {
  const box = await makeBox();
  try {
    // The filter lives under $TMPDIR; here that is inside the writable root box.root. TMPDIR is the
    // process's, shared with test files running beside this one: it is set only while the argv is
    // built (synchronously), never across an await.
    await platform.fs.mkdir(`${box.root}/tmp`);
    await platform.fs.chmod(`${box.root}/tmp`, 0o777);
    const dir = `${box.root}/tmp/trellis-sandbox-seccomp-${Deno.uid()}`;
    const script =
      `for f in ${dir}/*.bpf; do (: > "$f") 2>/dev/null && echo "emptied $f"; rm -f "$f" 2>/dev/null; done
       mv ${dir} ${dir}.moved 2>/dev/null && echo moved
       echo ok > ${box.root}/tmp/mine && echo "wrote beside it"`;
    const rt = await runtime();
    const saved = Deno.env.get("TMPDIR");
    Deno.env.set("TMPDIR", `${box.root}/tmp`);
    let argv: string[];
    try {
      argv = sandboxArgv(["/bin/sh", "-c", script], policyFor(box, { writableRoots: [box.root] }), rt);
    } finally {
      if (saved === undefined) Deno.env.delete("TMPDIR");
      else Deno.env.set("TMPDIR", saved);
    }
    const result = await runCommand(platform, {
      cmd: argv,
      cwd: box.ws,
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
      timeoutMs: 20_000,
    });
    assert.equal(result.stdout, "wrote beside it\n", result.stderr);
    const filters = (await platform.fs.readDir(dir)).filter((e) => e.name.endsWith(".bpf"));
    assert.ok(filters.length > 0);
    for (const entry of filters) {
      assert.ok(((await platform.fs.lstat(`${dir}/${entry.name}`))?.size ?? 0) > 0, entry.name);
    }
  } finally {
    await removeBox(box);
  }
});
