import assert from "node:assert/strict";
import { killTree } from "../../lib/platform/_termination.ts";
import { platform } from "../../lib/platform/mod.ts";
import { bunCommand } from "../../scripts/lib/bun_path.ts";

const PROBE = new URL("./_platform_probe.ts", import.meta.url).pathname;

async function probe(cmd: string[]): Promise<Record<string, unknown>> {
  const out = await new Deno.Command(cmd[0], {
    args: [...cmd.slice(1), PROBE],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

const expected = (runtime: string) => ({
  runtime,
  echo: { code: 3, stdout: "in[]", stderr: "err\n" },
  timeout: { timedOut: true, fast: true },
  timeoutLeftGroup: { timedOut: true, fast: true },
  file: ["f.txt", "watched.txt"],
  watched: true,
  sync: {
    listing: [["x.sh", true, false, false]],
    text: "#!/bin/sh\n",
    asText: "#!/bin/sh\n",
    prefix: "#!/",
    executable: true,
    missing: null,
  },
  digest: [
    "a9993e364706816aba3e25717850c26c9cd0d89d",
    "a12871fee210fb8619291eaea194581cbd2531e4b23759d225f6806923f63222",
  ],
  contents: {
    bomText: "\uFEFFbom é",
    bomTextSync: "\uFEFFbom é",
    fifoText: "from fifo",
    missing: "ENOENT",
    directory: "EISDIR",
  },
  fileUrl: "file:///tmp/a%20b%23c%25d",
  pty: { code: 4, terminal: true, read: true, stderr: [true, ""] },
});

Deno.test("platform (Deno): allow-listed env, piped stdio, a PTY, group-killing timeout, atomic writes, native watcher, blocking fs facet", async () => {
  assert.deepEqual(await probe([platform.execPath(), "run", "-A"]), expected("deno"));
});

Deno.test("platform (Bun): the same behaviour from the Bun implementation the binary uses (its PTY its own, not script's)", async () => {
  assert.deepEqual(await probe([bunCommand(), "run"]), expected("bun"));
});

Deno.test("platform.spawn() abort kills the whole process group, grandchildren included", async () => {
  const controller = new AbortController();
  const child = platform.spawn({
    cmd: ["sh", "-c", "sleep 60 & echo $!; wait"],
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin" },
    signal: controller.signal,
  });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const grandchild = Number((await reader.read()).value?.trim());
  controller.abort();
  const status = await child.status;
  assert.equal(status.aborted, true);
  await new Promise((r) => setTimeout(r, 100));
  // Gone, or a zombie waiting for init to reap it: either way no longer running.
  const stat = await platform.fs.readTextFile(`/proc/${grandchild}/stat`).catch(() => null);
  const state = stat?.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) ?? "gone";
  assert.ok(state === "gone" || state === "Z", `grandchild ${grandchild} is still running (state ${state})`);
  await reader.cancel();
});

Deno.test("platform.spawn() abort also kills a child that left the group (setsid, as a sandbox's init does)", async () => {
  const controller = new AbortController();
  const child = platform.spawn({
    cmd: ["sh", "-c", "setsid sleep 60 & echo $!; wait"],
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin" },
    signal: controller.signal,
  });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const escaped = Number((await reader.read()).value?.trim());
  // It runs in a session of its own by now: setsid has replaced nothing but its session.
  for (let i = 0; i < 50 && (await sessionOf(escaped)) !== escaped; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(await sessionOf(escaped), escaped, "the child never left the group");
  controller.abort();
  assert.equal((await child.status).aborted, true);
  try {
    // Its end closes the stdout it held: the read ends at once instead of waiting out the 60 s.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      reader.read().then((r) => r.done),
      new Promise((resolve) => (timer = setTimeout(() => resolve("still open after 5 s"), 5_000))),
    ]);
    clearTimeout(timer);
    assert.equal(ended, true);
    await new Promise((r) => setTimeout(r, 100));
    const stat = await platform.fs.readTextFile(`/proc/${escaped}/stat`).catch(() => null);
    const state = stat?.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) ?? "gone";
    assert.ok(state === "gone" || state === "Z", `child ${escaped} is still running (state ${state})`);
  } finally {
    try {
      Deno.kill(escaped, "SIGKILL");
    } catch {
      // gone, as it should be
    }
    await reader.cancel().catch(() => {});
  }
});

Deno.test("killTree walks only this process's own children: another's pid is signalled itself, its tree left alone", async () => {
  // Our child (sh) starts B, which starts C in a session of its own; B is not our child.
  const child = platform.spawn({
    cmd: ["sh", "-c", 'sh -c "setsid sleep 60 & echo C:\\$!; wait" & echo B:$!; wait'],
    env: { PATH: platform.env("PATH") ?? "/usr/bin:/bin" },
  });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/B:\d+/.test(text) || !/C:\d+/.test(text)) text += (await reader.read()).value ?? "";
  const b = Number(/B:(\d+)/.exec(text)![1]);
  const c = Number(/C:(\d+)/.exec(text)![1]);
  for (let i = 0; i < 50 && (await sessionOf(c)) !== c; i++) await new Promise((r) => setTimeout(r, 20));
  try {
    killTree(b);
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(!isRunning(await stateOf(b)), `B ${b} still runs`);
    // Walking B's tree would have reached C: B's pid could have been anyone's.
    assert.ok(isRunning(await stateOf(c)), `C ${c} was killed through a pid that is not our child`);
  } finally {
    for (const pid of [c, b]) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    child.kill("SIGKILL");
    await child.status;
    await reader.cancel().catch(() => {});
  }
});

/** A process's state letter (R, S, Z …) from /proc/<pid>/stat; "gone" without one. */
async function stateOf(pid: number): Promise<string> {
  const stat = await platform.fs.readTextFile(`/proc/${pid}/stat`).catch(() => null);
  return stat?.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) ?? "gone";
}

const isRunning = (state: string) => state !== "gone" && state !== "Z";

/** The session id of a process (field 6 of /proc/<pid>/stat). */
async function sessionOf(pid: number): Promise<number | undefined> {
  const stat = await platform.fs.readTextFile(`/proc/${pid}/stat`).catch(() => null);
  return stat ? Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[3]) : undefined;
}

const STDIO_PROBE = new URL("./_stdio_probe.ts", import.meta.url).pathname;
const RUNTIMES: [string, string[]][] = [["Deno", [platform.execPath(), "run", "-A"]], ["Bun", [
  bunCommand(),
  "run",
]]];

const STDOUT_PROBE = new URL("./_stdout_probe.ts", import.meta.url).pathname;

for (const [name, run] of RUNTIMES) {
  for (const touched of [true, false]) {
    Deno.test(`platform (${name}): writeStdout into a pipe${touched ? "" : " (stdout object never touched)"} delivers every byte once, past the pipe's 64 KiB, to a slow reader; a reader gone is EPIPE`, async () => {
      const count = 3000; // 300 KB in one write, then 300 KB in 30 writes
      for (const readAfterMs of [0, 300]) {
        const child = new Deno.Command(run[0], {
          args: [...run.slice(1), STDOUT_PROBE, ...(touched ? [] : ["untouched"]), String(count)],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        // Read at once, and once only after the pipe has filled while no one read.
        await new Promise((resolve) => setTimeout(resolve, readAfterMs));
        const [out, err] = await Promise.all([
          new Response(child.stdout).text(),
          new Response(child.stderr).text(),
          child.status,
        ]);
        assert.equal(err, "written\n");
        const lines = out.split("\n").slice(0, -1);
        assert.equal(lines.length, 2 * count, `reading after ${readAfterMs} ms`);
        assert.ok(lines.every((l, i) => l.startsWith(String(i).padStart(8, "0"))), "in order, none twice");
      }

      const gone = await new Deno.Command("sh", {
        args: [
          "-c",
          `${run.map((a) => `'${a}'`).join(" ")} '${STDOUT_PROBE}' ${
            touched ? "" : "untouched"
          } ${count} | head -c 10 >/dev/null`,
        ],
        stderr: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(gone.stderr), "failed: EPIPE\n");
    });
  }

  Deno.test(`platform (${name}): isTerminal is false for /dev/null, pipes and files; writeStderr writes stderr`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const out = await new Deno.Command(run[0], {
        args: [...run.slice(1), STDIO_PROBE],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(out.stderr), "to stderr\n");
      assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), {
        stdin: false,
        stdout: false,
        stderr: false,
      });
      const file = `${dir}/in.txt`;
      await Deno.writeTextFile(file, "x");
      const fromFile = await new Deno.Command("sh", {
        args: ["-c", `${run.map((a) => `'${a}'`).join(" ")} '${STDIO_PROBE}' < '${file}' 2>/dev/null`],
        stdout: "piped",
      }).output();
      assert.equal(JSON.parse(new TextDecoder().decode(fromFile.stdout)).stdin, false);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  // `script` (util-linux; CI installs it) gives the probe a pseudo-terminal on all three streams.
  Deno.test({
    name: `platform (${name}): isTerminal is true on a terminal`,
    fn: async () => {
      const out = await new Deno.Command("script", {
        args: ["-qec", `${run.map((a) => `'${a}'`).join(" ")} '${STDIO_PROBE}'`, "/dev/null"],
        stdin: "null",
        stdout: "piped",
      }).output();
      const line = new TextDecoder().decode(out.stdout).split(/\r?\n/).find((l) => l.startsWith("{"));
      assert.deepEqual(JSON.parse(line ?? "null"), { stdin: true, stdout: true, stderr: true });
    },
  });
}
