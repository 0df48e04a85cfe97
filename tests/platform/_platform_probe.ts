/**
 * Exercises the platform layer on whichever runtime runs it and prints what it saw as JSON.
 * platform_test.ts runs it under Bun, so the Bun implementation is tested with real processes.
 */
import { childEnv, digestHex, fileUrlOf, platform, runCommand } from "../../lib/platform/mod.ts";

const dir = await platform.fs.makeTempDir("trellis-probe-");
const env = childEnv({ ...platform.envAll(), TRELLIS_PROBE_SECRET: "leak" });
const echo = await runCommand(platform, {
  cmd: ["sh", "-c", 'cat; printf "[%s]" "$TRELLIS_PROBE_SECRET"; echo err >&2; exit 3'],
  env,
  input: "in",
});
const started = performance.now();
const timeout = await runCommand(platform, { cmd: ["sh", "-c", "sleep 30 & sleep 30"], env, timeoutMs: 200 });
const timeoutMs = performance.now() - started;
// A child that left the group (setsid, as bwrap's sandbox init does) still holds stdout: ended too.
const leftStarted = performance.now();
const leftGroup = await runCommand(platform, {
  cmd: ["sh", "-c", "setsid sleep 30 & sleep 30"],
  env,
  timeoutMs: 200,
});
const leftGroupMs = performance.now() - leftStarted;
await platform.fs.writeFileAtomic(`${dir}/f.txt`, "one");
await platform.fs.writeFileAtomic(`${dir}/f.txt`, "two");
// The watcher is armed when watch() returns: wait for the write's event itself, bounded (10 s).
let sawWatched!: () => void;
const watchedEvent = new Promise<void>((resolve) => (sawWatched = resolve));
const watcher = platform.watch([dir], (e) => {
  if (e.paths.some((p) => p.endsWith("watched.txt"))) sawWatched();
});
await platform.fs.writeTextFile(`${dir}/watched.txt`, "x");
let bound: ReturnType<typeof setTimeout> | undefined;
const watched = await Promise.race([
  watchedEvent.then(() => true),
  new Promise<false>((resolve) => (bound = setTimeout(() => resolve(false), 10_000))),
]);
clearTimeout(bound);
watcher.close();
const listing = (await platform.fs.readDir(dir)).map((e) => e.name).sort();
const sync = platform.fs.sync;
sync.mkdir(`${dir}/s/t`);
sync.writeFile(`${dir}/s/t/x.sh`, new TextEncoder().encode("#!/bin/sh\n"), { mode: 0o755 });
const syncFacet = {
  listing: sync.readDir(`${dir}/s/t`).map((e) => [e.name, e.isFile, e.isDirectory, e.isSymlink]),
  text: new TextDecoder().decode(sync.readFile(`${dir}/s/t/x.sh`)),
  asText: sync.readTextFile(`${dir}/s/t/x.sh`),
  prefix: new TextDecoder().decode(sync.readFilePrefix(`${dir}/s/t/x.sh`, 3)),
  executable: ((sync.lstat(`${dir}/s/t/x.sh`)?.mode ?? 0) & 0o111) !== 0,
  missing: sync.lstat(`${dir}/nope`),
};
// Contents: a small regular file (read blocking), and a FIFO, which must go the asynchronous way
// (a blocking read would wait for the writer with the event loop held).
await platform.fs.writeTextFile(`${dir}/bom.txt`, "\uFEFFbom é");
const bomText = await platform.fs.readTextFile(`${dir}/bom.txt`);
const bomTextSync = sync.readTextFile(`${dir}/bom.txt`);
await runCommand(platform, { cmd: ["mkfifo", `${dir}/pipe`], env });
const fifoRead = platform.fs.readTextFile(`${dir}/pipe`);
await new Promise((r) => setTimeout(r, 50));
await runCommand(platform, { cmd: ["sh", "-c", `printf 'from fifo' > '${dir}/pipe'`], env });
const fifoText = await fifoRead;
const missing = await platform.fs.readFile(`${dir}/none`).then(() => "read", (e) => e.code);
const directory = await platform.fs.readFile(dir).then(() => "read", (e) => e.code);
// A PTY (#23 item 2): the child sees a terminal on stdin and stdout, what is typed is echoed and
// read, stderr arrives on the one output, the exit code is the child's, and a descendant left
// holding the terminal does not keep the output open.
const tty = platform.spawn({
  cmd: [
    "sh",
    "-c",
    "test -t 0 && test -t 1 && echo TTY; read x; echo got:$x; echo err >&2; sleep 30 & exit 4",
  ],
  env,
  stdin: "piped",
  tty: true,
});
const ttyWriter = tty.stdin!.getWriter();
await ttyWriter.write(new TextEncoder().encode("kestrel\n"));
const [ttyOut, ttyErr, ttyStatus] = await Promise.all([
  new Response(tty.stdout).text(),
  new Response(tty.stderr).text(),
  tty.status,
]);
tty.kill();
const pty = {
  code: ttyStatus.code,
  terminal: ttyOut.includes("TTY\r\n"),
  read: ttyOut.includes("got:kestrel\r\n"),
  stderr: [ttyOut.includes("err\r\n"), ttyErr],
};
await platform.fs.remove(dir, { recursive: true });
console.log(JSON.stringify({
  runtime: platform.runtime,
  echo: { code: echo.code, stdout: echo.stdout, stderr: echo.stderr },
  timeout: { timedOut: timeout.timedOut, fast: timeoutMs < 5_000 },
  timeoutLeftGroup: { timedOut: leftGroup.timedOut, fast: leftGroupMs < 5_000 },
  file: listing,
  watched,
  sync: syncFacet,
  digest: [digestHex("sha1", "abc"), digestHex("sha256", new Uint8Array([1, 2]))],
  contents: { bomText, bomTextSync, fifoText, missing, directory },
  fileUrl: fileUrlOf("/tmp/a b#c%d"),
  pty,
}));
