/**
 * #20 item 4 / #26 item 1: `/approvals` and `/sandbox` change what happens, not only the label.
 * Sessions are opened with one setting from config, switched through the Session API (what the
 * interactive commands call), and then driven with real built-in tools, real files and real bwrap:
 * each probe asks, runs or is refused exactly as the new setting says.
 */
import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import type { ApprovalAnswer, ApprovalRequest, Approver } from "../../lib/loop/mod.ts";
import { detectSandbox, platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { call, say, scriptedModel } from "../loop/_fakes.ts";

const POLICIES = ["untrusted", "on-request", "on-failure", "never"] as const;
const MODES = ["read-only", "workspace-write", "danger-full-access"] as const;

const exists = async (path: string) => (await platform.fs.lstat(path)) !== null;

/** Answers every approval with `decision` and keeps each request's reason. */
function recordingApprover(decision: ApprovalAnswer["decision"]): Approver & { reasons: string[] } {
  const reasons: string[] = [];
  return {
    reasons,
    request(request: ApprovalRequest) {
      reasons.push(request.reason);
      return Promise.resolve({ decision });
    },
  };
}

async function openSession(overrides: string[], decision: ApprovalAnswer["decision"], turns: number) {
  const { root, env } = await makeSandboxHome();
  const ws = `${root}/ws`;
  await platform.fs.mkdir(ws);
  const loaded = await loadConfig(platform.fs, {
    cwd: ws,
    env: (name) => env[name],
    // The temp dir stays out of the writable roots: the test's "outside" lies under it.
    overrides: [
      "skills.bundled.enabled=false",
      "sandbox_workspace_write.exclude_tmpdir_env_var=true",
      ...overrides,
    ],
  });
  // Every turn is the same four calls with names unique to the turn, then a closing message.
  const steps = Array.from({ length: turns }, (_, n) => [
    [
      call("write_file", { path: `w${n}.txt`, content: "in" }),
      call("shell", { command: `echo in > s${n}.txt` }),
      call("shell", { command: `touch ${root}/out-s${n}` }),
      call("write_file", { path: `${root}/out-w${n}.txt`, content: "out" }),
    ],
    [say("done")],
  ]).flat();
  const approver = recordingApprover(decision);
  const events: TrellisEventBody[] = [];
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver,
    model: scriptedModel(steps),
  });
  let turn = 0;
  /** One turn of the four probes: what was asked, and which files exist afterwards. */
  const probe = async () => {
    const n = turn++;
    approver.reasons.length = 0;
    await session.runTurn({ prompt: `probe ${n}`, maxSteps: 4, signal: new AbortController().signal });
    return {
      asked: [...approver.reasons],
      wrote: {
        workspaceFile: await exists(`${ws}/w${n}.txt`),
        workspaceShell: await exists(`${ws}/s${n}.txt`),
        outsideShell: await exists(`${root}/out-s${n}`),
        outsideFile: await exists(`${root}/out-w${n}.txt`),
      },
    };
  };
  return { session, probe, events };
}

/** What each policy does with the four probes, every approval answered "yes". */
function expectedForPolicy(policy: typeof POLICIES[number]) {
  switch (policy) {
    case "untrusted":
      return {
        asked: [
          /^writing ".*w\d\.txt" under approval policy untrusted$/,
          /^approval policy untrusted: command is not known to be read-only$/,
          /^approval policy untrusted: command is not known to be read-only$/,
          /outside the writable roots/,
        ],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: false, outsideFile: true },
      };
    case "on-request":
      return {
        asked: [/outside the writable roots/],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: false, outsideFile: true },
      };
    case "on-failure":
      return {
        // The sandboxed `touch` outside fails; approving runs it again outside the sandbox.
        asked: [/failed inside the sandbox.*OUTSIDE the sandbox/, /outside the writable roots/],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: true, outsideFile: true },
      };
    case "never":
      return {
        asked: [],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: false, outsideFile: false },
      };
  }
}

function assertProbe(
  got: { asked: string[]; wrote: Record<string, boolean> },
  want: { asked: RegExp[]; wrote: Record<string, boolean> },
  label: string,
) {
  assert.equal(got.asked.length, want.asked.length, `${label}: asked ${JSON.stringify(got.asked)}`);
  got.asked.forEach((reason, i) => assert.match(reason, want.asked[i], `${label}: question ${i + 1}`));
  assert.deepEqual(got.wrote, want.wrote, label);
}

const sandbox = await detectSandbox(platform);

for (const from of POLICIES) {
  Deno.test({
    name:
      `/approvals from ${from} (config) to each other policy: writes and shell ask or run as the new policy says`,
    ignore: !sandbox.available,
    fn: async () => {
      const targets = POLICIES.filter((p) => p !== from);
      const { session, probe } = await openSession(
        [`approval_policy="${from}"`],
        "approved",
        1 + targets.length,
      );
      try {
        assert.equal(session.info().approvalPolicy, from);
        // The policy the session opened with is the one that applies before any switch.
        assertProbe(await probe(), expectedForPolicy(from), `${from} at start`);
        for (const to of targets) {
          session.setApprovalPolicy(to);
          assert.equal(session.info().approvalPolicy, to);
          const got = await probe();
          assertProbe(got, expectedForPolicy(to), `${from} → ${to}`);
          // No question after the switch names the policy switched away from.
          if (from !== to) {
            assert.ok(got.asked.every((r) => !r.includes(`policy ${from}`)), `${from} → ${to}`);
          }
        }
      } finally {
        await session.close();
      }
    },
  });
}

/** What each sandbox mode does with the four probes under on-request, every approval answered "no". */
function expectedForMode(mode: typeof MODES[number]) {
  switch (mode) {
    case "read-only":
      return {
        asked: [/^writing ".*w\d\.txt" in read-only sandbox mode$/, /in read-only sandbox mode$/],
        wrote: { workspaceFile: false, workspaceShell: false, outsideShell: false, outsideFile: false },
      };
    case "workspace-write":
      return {
        asked: [/outside the writable roots/],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: false, outsideFile: false },
      };
    case "danger-full-access":
      return {
        asked: [],
        wrote: { workspaceFile: true, workspaceShell: true, outsideShell: true, outsideFile: true },
      };
  }
}

for (const from of MODES) {
  Deno.test({
    name: `/sandbox from ${from} (config) to each other mode: file tools and shell follow the new mode`,
    ignore: !sandbox.available,
    fn: async () => {
      const targets = MODES.filter((m) => m !== from);
      const { session, probe } = await openSession([`sandbox_mode="${from}"`], "denied", 1 + targets.length);
      try {
        assertProbe(await probe(), expectedForMode(from), `${from} at start`);
        for (const to of targets) {
          session.setSandboxMode(to);
          assert.equal(session.info().sandboxMode, to);
          assertProbe(await probe(), expectedForMode(to), `${from} → ${to}`);
        }
      } finally {
        await session.close();
      }
    },
  });
}

Deno.test("setApprovalPolicy / setSandboxMode / setModel refuse an unknown or empty name and change nothing", async () => {
  const { session } = await openSession([], "denied", 0);
  try {
    assert.throws(
      () => session.setApprovalPolicy("sometimes"),
      /Unknown approval policy "sometimes": use untrusted/,
    );
    assert.throws(() => session.setSandboxMode("open"), /Unknown sandbox mode "open": use read-only/);
    assert.throws(() => session.setModel("  "), /A model name is needed/);
    const info = session.info();
    assert.deepEqual([info.approvalPolicy, info.sandboxMode], ["on-request", "workspace-write"]);
  } finally {
    await session.close();
  }
});
