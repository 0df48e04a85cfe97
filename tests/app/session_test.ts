import assert from "node:assert/strict";
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import type { TrellisEventBody } from "../../lib/shared/mod.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { say, scriptedModel } from "../loop/_fakes.ts";

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

Deno.test("Session.runTurn() sees an edited SKILL.md in the next turn, never in the one in flight (SK-15)", async () => {
  const { root, env } = await makeSandboxHome();
  const skillDir = `${env.HOME}/.agents/skills/notes`;
  await platform.fs.mkdir(skillDir);
  const skillFile = `${skillDir}/SKILL.md`;
  await platform.fs.writeTextFile(skillFile, "---\nname: notes\ndescription: first version\n---\nbody\n");
  await platform.fs.mkdir(`${root}/ws`);
  const loaded = await loadConfig(platform.fs, {
    cwd: `${root}/ws`,
    env: (name) => env[name],
    overrides: ["skills.watch_throttle_ms=20", "skills.bundled.enabled=false"],
  });
  const events: TrellisEventBody[] = [];
  const model = scriptedModel([[say("one")], [say("two")]]);
  const session = await Session.open({
    platform,
    loaded,
    events: (e) => events.push(e),
    approver: noTtyApprover,
    model,
    watchSkills: true,
  });
  try {
    await session.runTurn({ prompt: "first", maxSteps: 3, signal: new AbortController().signal });
    await platform.fs.writeTextFile(skillFile, "---\nname: notes\ndescription: second version\n---\nbody\n");
    await waitFor(() => Promise.resolve(events.some((e) => e.type === "skills.changed")));
    await session.runTurn({ prompt: "second", maxSteps: 3, signal: new AbortController().signal });
  } finally {
    await session.close();
  }
  const catalogs = model.requests.map((r) =>
    r.input.filter((i) => i.type === "message" && i.role === "developer").map((i) =>
      i.type === "message" ? i.content : ""
    )
      .filter((c) => c.startsWith("<skills_instructions>")).at(-1) ?? ""
  );
  assert.match(catalogs[0], /- notes: first version/);
  assert.match(catalogs[1], /- notes: second version/);
});

Deno.test("Session.open() preconnects to the provider's base URL, except for a preview that sends nothing", async () => {
  const { root, env } = await makeSandboxHome();
  await platform.fs.mkdir(`${root}/ws`);
  const loaded = await loadConfig(platform.fs, {
    cwd: `${root}/ws`,
    env: (name) => env[name],
    overrides: [
      "model_provider=local",
      'model_providers.local.base_url="http://127.0.0.1:9/v1"',
      'model_providers.local.wire_api="chat"',
      "skills.bundled.enabled=false",
    ],
  });
  const preconnected: string[] = [];
  const recording = { ...platform, preconnect: (url: string) => void preconnected.push(url) };
  for (const preview of [false, true]) {
    const session = await Session.open({
      platform: recording,
      loaded,
      events: () => {},
      approver: noTtyApprover,
      preview,
    });
    await session.close();
  }
  assert.deepEqual(preconnected, ["http://127.0.0.1:9/v1"]);
});
