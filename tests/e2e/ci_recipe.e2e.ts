/**
 * #25 item 3: the README's GitHub Actions recipe, run as written against the fixture model — every
 * step's `run` but the build (`id: install`), in GitHub's default shell, in a git checkout, with the
 * step's `env` (secrets given test values), `trellis` on PATH and `OPENAI_BASE_URL` at the fixture.
 * No network here to run the job on GitHub itself.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { trellisArgv } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}

async function recipe(): Promise<{ files: Map<string, string>; steps: Step[] }> {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const part = readme.split("<!-- ci-recipe:start -->")[1]?.split("<!-- ci-recipe:end -->")[0];
  assert.ok(part, "README.md has the ci-recipe markers");
  // Each block follows the line that names its file: `path`:
  const blocks = [...part.matchAll(/^`([^`]+)`:\n\n```(\w+)\n([\s\S]*?)```/gm)];
  const files = new Map(blocks.map(([, path, , body]) => [path, body]));
  const workflow = blocks.find(([, , lang]) => lang === "yaml");
  assert.ok(workflow, "the recipe has a workflow");
  const job = Object.values((parseYaml(workflow[3]) as { jobs: Record<string, { steps: Step[] }> }).jobs)[0];
  return { files, steps: job.steps };
}

async function runRecipe(answer: string) {
  const s = await e2eSetup();
  const { files, steps } = await recipe();
  const server = await startFixtureModelServer({ script: [{ text: answer }] });
  try {
    const repo = s.workspace;
    await new Deno.Command("git", { args: ["init", "-q", repo] }).output();
    for (const [path, body] of files) {
      if (path.startsWith(".github/workflows/")) continue;
      await Deno.mkdir(`${repo}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
      await Deno.writeTextFile(`${repo}/${path}`, body);
    }
    // What the install step leaves: `trellis` on PATH.
    const bin = `${s.root}/bin`;
    await Deno.mkdir(bin);
    const quoted = trellisArgv().map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
    await Deno.writeTextFile(`${bin}/trellis`, `#!/bin/sh\nexec ${quoted} "$@"\n`, { mode: 0o755 });
    const results: { id: string; code: number; stderr: string }[] = [];
    for (const step of steps) {
      if (!step.run || step.id === "install") continue;
      const stepEnv = Object.fromEntries(
        Object.entries(step.env ?? {}).map((
          [k, v],
        ) => [k, v.replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, "test-$1")]),
      );
      const out = await new Deno.Command("bash", {
        args: ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run],
        cwd: repo,
        env: {
          ...s.env,
          PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
          OPENAI_BASE_URL: server.url,
          ...stepEnv,
        },
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
      results.push({ id: step.id ?? "?", code: out.code, stderr });
      if (out.code !== 0) break; // as a job stops at a failing step
    }
    return { results, requests: server.requests as Record<string, any>[] };
  } finally {
    await server.close();
  }
}

Deno.test("the README's GitHub Actions recipe runs against the fixture model: a passing verdict passes the job (#25 item 3)", async () => {
  const { results, requests } = await runRecipe('{"verdict":"pass","findings":["README typo on line 3"]}');
  assert.deepEqual(results.map((r) => [r.id, r.code]), [["review", 0], ["gate", 0]], JSON.stringify(results));
  assert.match(results[1].stderr, /README typo on line 3/);
  assert.equal(requests.length, 1);
  assert.equal(requests[0].text.format.name, "codex_output_schema");
});

Deno.test("the README's GitHub Actions recipe: a failing verdict fails the gate step, an off-schema answer fails the review step (#25 item 3)", async () => {
  const failing = await runRecipe('{"verdict":"fail","findings":["SQL injection in db.ts"]}');
  assert.deepEqual(failing.results.map((r) => [r.id, r.code]), [["review", 0], ["gate", 1]]);
  // An answer that never matches (the repair gets the fixture's "script exhausted" text): exit 1 stops the job.
  const offSchema = await runRecipe("Looks fine to me.");
  assert.deepEqual(offSchema.results.map((r) => [r.id, r.code]), [["review", 1]]);
  assert.match(offSchema.results[0].stderr, /does not match --output-schema/);
});
