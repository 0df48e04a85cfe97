import assert from "node:assert/strict";
import * as path from "node:path";
import { platform } from "../lib/platform/mod.ts";
import { unusedDoorExports } from "./helpers/door_exports.ts";

// Who may import whom (ARCHITECTURE.md): shared ← platform ← config ← peers ← app ← cli.
const PEERS = [
  "model",
  "tools",
  "mcp",
  "skills",
  "hooks",
  "plugins",
  "loop",
  "agents",
  "checkpoints",
  "telemetry",
];
const ALLOWED: Record<string, string[]> = {
  shared: [],
  platform: ["shared"],
  config: ["shared", "platform"],
  ...Object.fromEntries(PEERS.map((p) => [p, ["shared", "platform", "config"]])),
  // lib/acp speaks the Agent Client Protocol only (#25 item 1): lib/app hands it sessions.
  acp: ["shared", "platform"],
  app: ["shared", "platform", "config", ...PEERS, "acp"],
  // The CLI parses, calls lib/app, prints (#16 item 5): it reaches config, MCP, plugins, skills,
  // hooks and the loop only through lib/app, which assembles them (the Workspace) and re-exports
  // the few pure functions and types a command prints with. lib/shared (errors, events, terminal
  // text) and lib/platform (the Platform the terminal is read and written through) stay allowed:
  // printing and terminal handling are the CLI's own job, not wiring.
  cli: ["shared", "platform", "app"],
};
const RUNTIME_ONLY = /\b(Deno|Bun)\.[A-Za-z]|from "node:(fs|fs\/promises|child_process|process)"/;

const lib = new URL("../lib/", import.meta.url).pathname;

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await platform.fs.readDir(dir)) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sources(full));
    else if (entry.name.endsWith(".ts")) out.push(full);
  }
  return out;
}

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:import|export)\s[^"']*?from\s+["']([^"']+)["']/g)].map((m) => m[1]);
}

Deno.test("architecture: folders import only what the layering allows, through mod.ts", async () => {
  const problems: string[] = [];
  for (const file of await sources(lib)) {
    const folder = path.relative(lib, file).split(path.sep)[0];
    const text = await platform.fs.readTextFile(file);
    for (const spec of loadsOf(text)) {
      if (!spec.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), spec);
      const rel = path.relative(lib, target);
      if (rel.startsWith("..")) {
        problems.push(`${path.relative(lib, file)} imports outside lib: ${spec}`);
        continue;
      }
      const targetFolder = rel.split(path.sep)[0];
      if (targetFolder === folder) continue;
      if (!(ALLOWED[folder] ?? []).includes(targetFolder)) {
        problems.push(`${path.relative(lib, file)}: ${folder} may not import ${targetFolder} (${spec})`);
      }
      if (path.basename(target) !== "mod.ts") {
        problems.push(`${path.relative(lib, file)}: cross-folder import must go through mod.ts (${spec})`);
      }
    }
  }
  assert.deepStrictEqual(problems, []);
});

Deno.test("architecture: only lib/platform touches Deno, Bun and side-effecting node modules", async () => {
  const offenders: string[] = [];
  for (const file of await sources(lib)) {
    if (path.relative(lib, file).startsWith("platform")) continue;
    const code = (await platform.fs.readTextFile(file)).replace(/^\s*(\/\/|\*).*$/gm, "");
    if (RUNTIME_ONLY.test(code)) offenders.push(path.relative(lib, file));
  }
  assert.deepStrictEqual(offenders, []);
});

/** Every module a file loads: static imports and re-exports, and dynamic `import("…")` of a literal. */
function loadsOf(text: string): string[] {
  // Doc comments show imports (`import { x } from "./mod.ts"` in a module's @example): not loads.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [
    ...importsOf(code),
    ...[...code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)].map((m) => m[1]),
    ...[...code.matchAll(/\bimport\s*\(\s*(["'`])([^"'`]*)\1/g)].map((m) => m[2]),
  ];
}

// Issue #26 item 3: a cycle makes load order matter and hides who depends on whom. Dynamic
// import() counts like a static one (a lazily loaded module is still a dependency), with no
// exemption: the command table takes what the interactive session needs from run_cli.ts as a value.
Deno.test("architecture: no import cycle between the files of lib, dynamic import() included", async () => {
  const graph = new Map<string, string[]>();
  for (const file of await sources(lib)) {
    const text = await platform.fs.readTextFile(file);
    graph.set(
      file,
      loadsOf(text).filter((s) => s.startsWith(".")).map((s) => path.resolve(path.dirname(file), s)),
    );
  }
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        cycles.push(
          trail.slice(trail.indexOf(next)).concat(next).map((f) => path.relative(lib, f)).join(" → "),
        );
      } else if (!state.has(next) && graph.has(next)) visit(next);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  assert.deepStrictEqual(cycles, []);
});

Deno.test("architecture: every import() in lib names its module literally (a computed one hides a dependency)", async () => {
  const offenders: string[] = [];
  for (const file of await sources(lib)) {
    const text = await platform.fs.readTextFile(file);
    if (/\bimport\s*\(\s*[^"'`\s]/.test(text)) offenders.push(path.relative(lib, file));
  }
  assert.deepStrictEqual(offenders, []);
});

// Issue #26 item 3: no bare `new Error(` in lib — every error is a TrellisError with a code.
const BARE_ERRORS_LEFT: Record<string, number> = {};

Deno.test("architecture: errors in lib are TrellisErrors; no new bare `new Error(` (the list of those left only shrinks)", async () => {
  const found: Record<string, number> = {};
  for (const file of await sources(lib)) {
    const count = (await platform.fs.readTextFile(file)).split("new Error(").length - 1;
    if (count) found[path.relative(lib, file)] = count;
  }
  // Equal, not at most: a converted site must leave the list, so it cannot come back unnoticed.
  assert.deepStrictEqual(found, BARE_ERRORS_LEFT);
});

// Issue #26 item 3: each folder's door exports only what something outside the folder imports.
Deno.test("architecture: every name a lib/<folder>/mod.ts exports is imported outside its folder", async () => {
  const root = new URL("..", import.meta.url).pathname;
  const unused = (await unusedDoorExports(root)).map((u) => `lib/${u.folder}/mod.ts exports ${u.name}`);
  assert.deepStrictEqual(unused, [], "remove the export from the door (or use it)");
});

Deno.test("architecture: the door check sees named, namespace, re-exported and `export *` uses, and nothing else", async () => {
  const root = await platform.fs.makeTempDir("trellis-doors-");
  const write = async (file: string, text: string) => {
    await platform.fs.mkdir(path.dirname(path.join(root, file)));
    await platform.fs.writeTextFile(path.join(root, file), text);
  };
  await write(
    "lib/a/mod.ts",
    'export { one, two } from "./impl.ts";\nexport * from "./more.ts";\nexport const three = 3;\n',
  );
  await write("lib/a/impl.ts", "export const one = 1;\nexport const two = 2;\n");
  await write("lib/a/more.ts", "export type Four = 4;\nexport const five = 5;\n");
  // Used inside its own folder only: still unused at the door.
  await write("lib/a/inside.ts", 'import { two } from "./mod.ts";\nexport const x = two;\n');
  await write("lib/b/mod.ts", 'import { one as uno } from "../a/mod.ts";\nexport const b = uno;\n');
  await write(
    "tests/t.ts",
    'import * as a from "../lib/a/mod.ts";\nimport { b } from "../lib/b/mod.ts";\na.three; b;\n',
  );
  await write("mod.ts", 'export type { Four } from "./lib/a/mod.ts";\n');
  const found = (await unusedDoorExports(root)).map((u) => `${u.folder}.${u.name}`);
  assert.deepStrictEqual(found, ["a.five", "a.two"]);
});
