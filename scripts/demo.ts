/**
 * `deno task demo`: a real agent turn, offline. Starts the fixture model server on a free loopback
 * port, makes a sample workspace, and runs `trellis exec` in it: the scripted model reads notes.md,
 * edits it, and answers. The workspace-write sandbox and the event stream are the real ones.
 */
import { startFixtureModelServer } from "./fixture_model_server.ts";

const root = await Deno.makeTempDir({ prefix: "trellis-demo-" });
const workspace = `${root}/workspace`;
const home = `${root}/home`;
await Deno.mkdir(workspace, { recursive: true });
await Deno.mkdir(`${home}/.trellis`, { recursive: true });
await Deno.writeTextFile(
  `${workspace}/notes.md`,
  "# Release notes\n\n- TODO: write the changelog\n- ship the binary\n",
);
const server = await startFixtureModelServer({
  script: new URL("../fixtures/models/read_and_edit.yaml", import.meta.url).pathname,
});
const bin = Deno.env.get("TRELLIS_BIN");
const argv = bin ? [bin] : [Deno.execPath(), "run", "-A", new URL("../main.ts", import.meta.url).pathname];
const json = Deno.args.includes("--json");
console.error(`demo: fixture model at ${server.url}; workspace ${workspace}\n`);
console.error(`demo: before:\n${await Deno.readTextFile(`${workspace}/notes.md`)}`);
const command = new Deno.Command(argv[0], {
  args: [
    ...argv.slice(1),
    "exec",
    "--skip-git-repo-check",
    ...(json ? ["--json"] : []),
    "-c",
    "model_provider=fixture",
    "-c",
    `model_providers.fixture.base_url=${JSON.stringify(server.url)}`,
    "-c",
    'model_providers.fixture.wire_api="responses"',
    "-m",
    "fixture-model",
    "-s",
    "workspace-write",
    "Mark the TODO in notes.md as done.",
  ],
  cwd: workspace,
  env: { HOME: home, TRELLIS_HOME: `${home}/.trellis`, TRELLIS_SYSTEM_DIR: `${root}/etc` },
  stdin: "null",
  stdout: "inherit",
  stderr: "inherit",
});
const { code } = await command.output();
console.error(`\ndemo: after:\n${await Deno.readTextFile(`${workspace}/notes.md`)}`);
const sessions = [...Deno.readDirSync(`${home}/.trellis/sessions`)].map((e) => e.name);
const lines = sessions.length
  ? (await Deno.readTextFile(`${home}/.trellis/sessions/${sessions[0]}`)).trim().split("\n")
  : [];
console.error(
  `demo: trellis exited ${code}; its transcript (${sessions[0]}) has ${lines.length} JSONL lines`,
);
console.error("demo: (the temporary workspace and home are removed now)");
await server.close();
await Deno.remove(root, { recursive: true });
Deno.exit(code);
