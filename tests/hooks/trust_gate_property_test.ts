import assert from "node:assert/strict";
import fc from "fast-check";
import { loadConfig } from "../../lib/config/mod.ts";
import { createHookEngine, loadHooks } from "../../lib/hooks/mod.ts";
import { type Platform, platform } from "../../lib/platform/mod.ts";
import { discardEvents } from "../../lib/shared/mod.ts";
import { trustEntry } from "../helpers/trust_project.ts";
import { makeSandboxHome } from "../helpers/cli_harness.ts";
import { testEnv, turnContext } from "./_helpers.ts";

type Where = "system" | "user" | "project";
type State = "none" | "match" | "stale" | "project-self";
interface Spec {
  where: Where;
  matcher: string;
  timeout?: number;
  state: State;
  enabled?: boolean;
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  where: fc.constantFrom<Where>("system", "user", "project"),
  matcher: fc.constantFrom("", "*", "Bash", "Edit|Write", "^Ba"),
  timeout: fc.option(fc.integer({ min: 1, max: 900 }), { nil: undefined }),
  state: fc.constantFrom<State>("none", "match", "stale", "project-self"),
  enabled: fc.option(fc.boolean(), { nil: undefined }),
}, { requiredKeys: ["where", "matcher", "state"] });

const fileOf = (env: Record<string, string>, project: string, where: Where) =>
  where === "system"
    ? `${env.TRELLIS_SYSTEM_DIR}/hooks.json`
    : where === "user"
    ? `${env.TRELLIS_HOME}/hooks.json`
    : `${project}/.trellis/hooks.json`;

Deno.test("loadHooks() + createHookEngine() never spawn an untrusted, modified or disabled unmanaged handler (HK-3 property)", async () => {
  const { root, env } = await makeSandboxHome();
  const project = `${root}/repo`;
  await platform.fs.mkdir(`${project}/.git`);
  await platform.fs.mkdir(`${project}/.trellis`);
  const spawned: string[] = [];
  // Records what would run, without starting processes: the gate is what is under test.
  const recording: Platform = {
    ...platform,
    spawn: (options) => {
      spawned.push(options.cmd.at(-1)!);
      throw new Error("not started in this test");
    },
  };
  const userConfig = `${env.TRELLIS_HOME}/config.toml`;
  await fc.assert(
    fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 5 }), async (specs) => {
      const byFile = new Map<string, { matcher: string; hooks: Record<string, unknown>[] }[]>();
      specs.forEach((s, i) => {
        const file = fileOf(env, project, s.where);
        const hook = {
          type: "command",
          command: `echo hook-${i}`,
          ...(s.timeout ? { timeout: s.timeout } : {}),
        };
        byFile.set(file, [...(byFile.get(file) ?? []), { matcher: s.matcher, hooks: [hook] }]);
      });
      for (const where of ["system", "user", "project"] as const) {
        const file = fileOf(env, project, where);
        await platform.fs.writeTextFile(
          file,
          JSON.stringify({ hooks: { PreToolUse: byFile.get(file) ?? [] } }),
        );
      }
      await platform.fs.writeTextFile(`${project}/.trellis/config.toml`, "");
      await platform.fs.writeTextFile(userConfig, trustEntry(project));
      const load = async () => {
        const loaded = await loadConfig(platform.fs, { cwd: project, env: (n) => env[n] });
        return await loadHooks({ loaded, platform: recording, pluginSources: [] });
      };
      const first = await load();
      const byCommand = new Map(first.handlers.map((h) => [h.command, h]));
      let userState = "";
      let projectState = "";
      specs.forEach((s, i) => {
        const h = byCommand.get(`echo hook-${i}`)!;
        const hash = s.state === "stale" ? `sha256:${"0".repeat(64)}` : h.hash;
        const entry = `\n[hooks.state."${h.key}"]\n` +
          (s.state !== "none" ? `trusted_hash = "${hash}"\n` : "") +
          (s.enabled !== undefined ? `enabled = ${s.enabled}\n` : "");
        if (s.state === "project-self") projectState += entry;
        else userState += entry;
      });
      // The user trusts the project as it now is (its layer carrying hook state included, #20).
      await platform.fs.writeTextFile(`${project}/.trellis/config.toml`, projectState);
      await platform.fs.writeTextFile(userConfig, trustEntry(project) + userState);
      const { handlers } = await load();
      spawned.length = 0;
      const engine = createHookEngine({
        handlers,
        platform: recording,
        events: discardEvents,
        home: env.TRELLIS_HOME,
        threadId: "t",
        baseEnv: testEnv(),
      });
      await engine.preToolUse(turnContext(project), {
        toolName: "Bash",
        aliases: ["Edit"],
        toolInput: { command: "ls" },
        toolUseId: "c",
      });
      const expected = specs.map((s, i) => ({ s, command: `echo hook-${i}` })).filter(({ s }) =>
        s.where === "system" || (s.state === "match" && s.enabled !== false)
      ).map(({ command }) => command);
      assert.deepStrictEqual([...spawned].sort(), expected.sort());
    }),
    { numRuns: 30 },
  );
});
