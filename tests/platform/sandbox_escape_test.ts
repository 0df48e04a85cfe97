import assert from "node:assert/strict";
import { platform, runCommand, sandboxArgv } from "../../lib/platform/mod.ts";
import { type HookHandlerInfo, runHookCommand } from "../../lib/hooks/mod.ts";
import { createBuiltinTools, type PermissionProfile, sandboxPolicyFor } from "../../lib/tools/mod.ts";
import { exists, makeBox, NOBODY, policyFor, removeBox, runInSandbox, runtime } from "./_sandbox_box.ts";

// Issue #13 item 1: as root, bwrap kept every capability, so a sandboxed command could remount `/`
// read-write and write anywhere. These run real bwrap as root (as CI does) and as uid 65534.

const ATTACK = (outside: string) =>
  `mount -o remount,rw,bind / 2>&1; echo x > ${outside}/file 2>&1; echo "status=$?"`;

for (const mode of ["workspace-write", "read-only"] as const) {
  for (const [who, as] of [["root", undefined], ["an unprivileged user", NOBODY]] as const) {
    Deno.test(`sandboxArgv() keeps \`mount -o remount,rw,bind / && echo x > outside\` from escaping in ${mode} as ${who}`, async () => {
      const box = await makeBox();
      try {
        const result = await runInSandbox(policyFor(box, { mode }), ATTACK(box.outside), {
          as: as && [...as],
        });
        assert.match(result.stdout, /status=[12]\n$/);
        assert.equal(await exists(`${box.outside}/file`), false);
      } finally {
        await removeBox(box);
      }
    });
  }
}

Deno.test("sandboxArgv() runs a command as root with no capabilities, no new privileges and no way to make a namespace", async () => {
  const box = await makeBox();
  try {
    const result = await runInSandbox(
      policyFor(box),
      "grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status; unshare -Ur true 2>/dev/null || echo no-userns",
    );
    assert.equal(
      result.stdout,
      "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n" +
        "CapAmb:\t0000000000000000\nNoNewPrivs:\t1\nno-userns\n",
    );
  } finally {
    await removeBox(box);
  }
});

Deno.test("sandboxArgv() still lets an unprivileged user write in the workspace and nowhere else", async () => {
  const box = await makeBox();
  try {
    const result = await runInSandbox(
      policyFor(box),
      `echo ok > ${box.ws}/made && id -u && (echo x > ${box.outside}/no) 2>/dev/null || echo refused`,
      { as: [...NOBODY] },
    );
    assert.equal(result.stdout, "65534\nrefused\n");
    assert.equal(await platform.fs.readTextFile(`${box.ws}/made`), "ok\n");
  } finally {
    await removeBox(box);
  }
});

function profileOf(ws: string, mode: PermissionProfile["sandboxMode"]): PermissionProfile {
  return {
    sandboxMode: mode,
    approvalPolicy: "on-request",
    workspace: ws,
    writableRoots: [ws],
    readableRoots: [],
    networkAccess: false,
  };
}

for (const mode of ["workspace-write", "read-only"] as const) {
  Deno.test(`shell() cannot remount / and write outside the roots as root in ${mode}`, async () => {
    const box = await makeBox();
    try {
      const env = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: box.root };
      const quiet = {
        ...platform,
        env: (n: string) => env[n as keyof typeof env],
        envAll: () => ({ ...env }),
      };
      const shell = createBuiltinTools({
        platform: quiet,
        profile: profileOf(box.ws, mode),
        sandbox: await runtime(),
      })
        .find((t) => t.name === "shell")!;
      const args = shell.parseArguments({ command: ATTACK(box.outside) });
      const result = await shell.run(args, {
        callId: "c",
        cwd: box.ws,
        signal: new AbortController().signal,
        emit: () => {},
        escalated: false,
      });
      assert.equal(shell.approval(args, { cwd: box.ws }).kind, "none");
      assert.match(result.output, /status=[12]\n/);
      assert.equal(await exists(`${box.outside}/file`), false);
    } finally {
      await removeBox(box);
    }
  });
}

Deno.test("runHookCommand() wrapped in the session's profile (as hooks are) cannot remount / and write outside", async () => {
  const box = await makeBox();
  try {
    const status = await runtime();
    const env = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", SHELL: "/bin/sh" };
    const policy = sandboxPolicyFor(profileOf(box.ws, "workspace-write"), box.ws, env);
    const handler = { command: ATTACK(box.outside), timeoutSec: 20 } as unknown as HookHandlerInfo;
    const result = await runHookCommand(handler, {
      platform,
      baseEnv: env,
      cwd: box.ws,
      input: "{}",
      wrapCommand: (argv) => sandboxArgv(argv, policy, status),
    });
    assert.match(result.stdout, /status=[12]\n$/);
    assert.equal(await exists(`${box.outside}/file`), false);
    // The hook runner passes the profile's argv to runCommand, which removed its placeholders.
    assert.deepStrictEqual(await platform.fs.readDir(box.ws), []);
  } finally {
    await removeBox(box);
  }
});

Deno.test("runCommand() of a sandbox argv as root reaches the file system it should: the workspace, read-only /", async () => {
  const box = await makeBox();
  try {
    const argv = sandboxArgv(
      ["/bin/sh", "-c", "cat /etc/hostname >/dev/null && echo ok > made && cat made"],
      policyFor(box),
      await runtime(),
    );
    const result = await runCommand(platform, { cmd: argv, env: { PATH: "/usr/bin:/bin" } });
    assert.deepStrictEqual([result.code, result.stdout], [0, "ok\n"]);
  } finally {
    await removeBox(box);
  }
});
