import assert from "node:assert/strict";
import fc from "fast-check";
import { checkManifestPath, parseManifest } from "../../lib/plugins/mod.ts";

Deno.test("parseManifest() reads every PL-1 field when the manifest declares them", () => {
  const text = JSON.stringify({
    name: "demo",
    version: " 1.2.0 ",
    description: "d",
    keywords: ["a", 1],
    skills: ["./skills", "./more", "./skills"],
    mcpServers: "./mcp.json",
    apps: "./apps.json",
    hooks: ["./h/one.json", { hooks: { Stop: [] } }],
    interface: {
      displayName: "Demo",
      websiteURL: "https://x",
      brandColor: "#112233",
      logo: "./assets/l.png",
    },
  });
  assert.deepStrictEqual(parseManifest(text), {
    manifest: {
      name: "demo",
      version: "1.2.0",
      description: "d",
      keywords: ["a"],
      skills: ["more", "skills"],
      mcpServers: { kind: "path", path: "mcp.json" },
      apps: "apps.json",
      hooks: [{ kind: "path", path: "h/one.json" }, {
        kind: "inline",
        index: 1,
        value: { hooks: { Stop: [] } },
      }],
      interface: {
        displayName: "Demo",
        websiteUrl: "https://x",
        brandColor: "#112233",
        logo: "assets/l.png",
      },
      metadata: {},
    },
    diagnostics: [],
  });
});

Deno.test("parseManifest() ignores each bad path with a warning (PL-2)", () => {
  const bad = ["../x", "/etc/x", "C:\\x", "./", "./a/../../x", "skills/"];
  const { manifest, diagnostics } = parseManifest(
    JSON.stringify({ name: "p", skills: bad, hooks: "/etc/passwd" }),
  );
  assert.deepStrictEqual(manifest?.skills, []);
  assert.deepStrictEqual(manifest?.hooks, []);
  assert.deepStrictEqual(diagnostics.map((d) => d.message), [
    "ignoring skills: path must start with `./` relative to plugin root",
    "ignoring skills: path must be relative to plugin root, not absolute",
    "ignoring skills: path must be relative to plugin root, not absolute",
    "ignoring skills: path must not be just `./`",
    "ignoring skills: path must not contain `..`",
    "ignoring skills: path must start with `./` relative to plugin root",
    "ignoring hooks: path must be relative to plugin root, not absolute",
  ]);
});

Deno.test("parseManifest() defaults the name to the dir and leaves hooks undefined when absent (PL-3)", () => {
  const { manifest } = parseManifest("{}", { dirName: "fallback" });
  assert.deepStrictEqual(manifest, { name: "fallback", keywords: [], skills: [], metadata: {} });
});

Deno.test("parseManifest() keeps at most 3 default prompts of ≤ 128 chars, flattened (PL-4)", () => {
  const prompts = ["  a\n b ", "", 7, "x".repeat(129), "c", "d", "e"];
  const { manifest, diagnostics } = parseManifest(
    JSON.stringify({ name: "p", interface: { defaultPrompt: prompts } }),
  );
  assert.deepStrictEqual(manifest?.interface, { defaultPrompts: ["a b", "c", "d"] });
  assert.equal(diagnostics.length, 4);
});

Deno.test("parseManifest() reads Claude Code commands/agents paths, keeps metadata and records unsupported components", () => {
  const text = JSON.stringify({
    name: "c",
    author: { name: "A" },
    license: "MIT",
    commands: "./c",
    agents: ["./a", "./b.md"],
    lspServers: { ts: { command: "tsls" } },
    outputStyles: "./styles",
  });
  const { manifest, diagnostics } = parseManifest(text);
  assert.deepStrictEqual(manifest, {
    name: "c",
    keywords: [],
    skills: [],
    commands: ["c"],
    agents: ["a", "b.md"],
    unsupported: { lspServers: { ts: { command: "tsls" } }, outputStyles: "./styles" },
    metadata: { author: { name: "A" }, license: "MIT" },
  });
  assert.deepStrictEqual(diagnostics, []);
});

Deno.test("parseManifest() returns no manifest when the JSON is invalid or the name is bad (PL-1)", () => {
  assert.equal(parseManifest("{nope").manifest, null);
  assert.equal(parseManifest("[]").manifest, null);
  assert.equal(parseManifest(JSON.stringify({ name: "../evil" })).manifest, null);
});

Deno.test("parseManifest() warns and drops wrongly typed fields", () => {
  const { manifest, diagnostics } = parseManifest(
    JSON.stringify({ name: "p", version: 3, mcpServers: 5, skills: 4 }),
  );
  assert.deepStrictEqual(manifest, { name: "p", keywords: [], skills: [], metadata: {} });
  assert.equal(diagnostics.length, 3);
});

Deno.test("checkManifestPath() never accepts a path that could leave the root (PL-2, property)", () => {
  const segment = fc.constantFrom("a", "b", "..", ".", "", "C:", "\\", "/");
  fc.assert(
    fc.property(
      fc.array(segment, { maxLength: 6 }),
      fc.constantFrom("", "./", "/", "../"),
      (parts, prefix) => {
        const candidate = prefix + parts.join("/");
        const check = checkManifestPath(candidate);
        if (!check.ok) return true;
        return !check.relative.split("/").includes("..") && !check.relative.startsWith("/") &&
          !/^[A-Za-z]:/.test(check.relative) && check.relative.length > 0;
      },
    ),
  );
});
