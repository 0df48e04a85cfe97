import assert from "node:assert/strict";
import { compactSchema } from "../../lib/mcp/schema_compact.ts";
import { listManagerTools } from "../../lib/mcp/mod.ts";
import { fixture, startRuntime, stdio } from "./_helpers.ts";

// Issue #21 item 15: declarations without what no model reads, nothing it uses lost.

type Json = Record<string, unknown>;

/** Follows `#/...` pointers in `root`, as a validator would (enough for these schemas). */
function resolve(root: Json, ref: string): unknown {
  return ref.slice(2).split("/").reduce<unknown>((node, key) => (node as Json)?.[key], root);
}

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      k === "$ref" && typeof v === "string" ? out.push(v) : refs(v, out);
    }
  }
  return out;
}

Deno.test("unreferenced $defs are pruned; referenced ones are kept and resolve; default/format/bounds stay", () => {
  const schema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      a: { $ref: "#/$defs/Shared" },
      b: { $ref: "#/$defs/Shared" },
      once: { $ref: "#/$defs/Once", description: "the one use" },
      n: { type: "integer", minimum: 1, maximum: 100, default: 10 },
    },
    $defs: {
      Shared: { type: "string", format: "date-time", default: "2026-01-01T00:00:00Z", maxLength: 40 },
      Once: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] },
      Unused: { type: "object", description: "x".repeat(500) },
      OnlyFromUnused: { type: "string" },
    },
  };
  const out = compactSchema(structuredClone(schema));
  assert.deepEqual(out, {
    type: "object",
    properties: {
      a: { $ref: "#/$defs/Shared" },
      b: { $ref: "#/$defs/Shared" },
      // Used once: put in place, its use's own description kept.
      once: {
        type: "object",
        properties: { id: { type: "string", format: "uuid" } },
        required: ["id"],
        description: "the one use",
      },
      n: { type: "integer", minimum: 1, maximum: 100, default: 10 },
    },
    $defs: {
      Shared: { type: "string", format: "date-time", default: "2026-01-01T00:00:00Z", maxLength: 40 },
    },
  });
  for (const ref of refs(out)) assert.ok(resolve(out, ref), `${ref} does not resolve`);
});

Deno.test("a definition reached only through another is kept; a recursive one stays a $ref", () => {
  const out = compactSchema({
    type: "object",
    properties: { tree: { $ref: "#/$defs/Node" }, other: { $ref: "#/$defs/Node" } },
    $defs: {
      Node: {
        type: "object",
        properties: {
          label: { $ref: "#/$defs/Label" },
          children: { type: "array", items: { $ref: "#/$defs/Node" } },
        },
      },
      Label: { type: "string", minLength: 1 },
      Dead: { type: "number" },
    },
  });
  const defs = out.$defs as Json;
  assert.deepEqual(Object.keys(defs).sort(), ["Node"]);
  // Label had one use: inlined inside Node.
  assert.deepEqual((defs.Node as Json).properties, {
    label: { type: "string", minLength: 1 },
    children: { type: "array", items: { $ref: "#/$defs/Node" } },
  });
});

Deno.test("refs it cannot follow by name keep the schema's definitions (the neighbours the pruning must not break)", () => {
  // A pointer into a definition's insides: the whole $defs stays.
  const inside = {
    type: "object",
    properties: { id: { $ref: "#/$defs/Page/properties/id" } },
    $defs: { Page: { type: "object", properties: { id: { type: "string" } } }, Unused: { type: "number" } },
  };
  assert.deepEqual(Object.keys(compactSchema(inside).$defs as Json).sort(), ["Page", "Unused"]);
  // zod's pointers into the tree: they still resolve after compaction.
  const zod = {
    type: "object",
    properties: {
      owner: { type: "string", description: "Repository owner, the user or organisation" },
      fork_owner: { $ref: "#/properties/owner" },
    },
    additionalProperties: false,
    $schema: "http://json-schema.org/draft-07/schema#",
  };
  const out = compactSchema(zod);
  assert.deepEqual(resolve(out, "#/properties/owner"), zod.properties.owner);
  assert.equal(out.additionalProperties, false);
  assert.equal(out.$schema, undefined);
  // An $anchor or a remote $ref is left verbatim.
  const anchored = {
    type: "object",
    properties: { a: { $ref: "#Thing" } },
    $defs: { T: { $anchor: "Thing", type: "string" } },
  };
  assert.equal(compactSchema(anchored), anchored);
});

Deno.test("a title that repeats its property's name goes; one that says more stays", () => {
  const out = compactSchema({
    type: "object",
    properties: {
      repo_path: { title: "Repo Path", type: "string" },
      branch: { title: "Branch to check out (default: main)", type: "string" },
      "$id": { type: "string", description: "a parameter named $id is a parameter" },
    },
  });
  assert.deepEqual(out.properties, {
    repo_path: { type: "string" },
    branch: { title: "Branch to check out (default: main)", type: "string" },
    "$id": { type: "string", description: "a parameter named $id is a parameter" },
  });
});

Deno.test("a repeated subschema is declared once and referenced", () => {
  const filter = {
    type: "object",
    properties: {
      property: { type: "string", description: "The property to filter on" },
      operator: { type: "string", enum: ["EQ", "NEQ", "LT", "GT", "IN", "CONTAINS_TOKEN"] },
      value: { type: "string", description: "The value to compare against" },
    },
    required: ["property", "operator"],
  };
  const schema = {
    type: "object",
    properties: {
      or: { type: "array", items: filter },
      and: { type: "array", items: structuredClone(filter) },
    },
  };
  const out = compactSchema(schema);
  assert.ok(JSON.stringify(out).length < JSON.stringify(schema).length);
  const { or, and } = out.properties as Record<string, Json>;
  assert.deepEqual(or, and);
  assert.deepEqual(resolve(out, or.$ref as string), { type: "array", items: filter });
});

Deno.test("the model is declared the compacted schema; mcp tools lists it verbatim", async () => {
  const { runtime } = await startRuntime([stdio("notion", [fixture("published_server.mjs"), "defs"])]);
  await runtime.awaitStartup({ graceMs: 60_000 });
  const step = runtime.captureStep();
  try {
    const declared = step.tools.find((t) => t.name === "mcp__notion__create_page")!.parameters as Json;
    assert.deepEqual(declared, {
      type: "object",
      properties: {
        parent: { type: "object", properties: { page_id: { type: "string", format: "uuid" } } },
        icon: { $ref: "#/$defs/emojiRequest" },
        cover: { $ref: "#/$defs/emojiRequest" },
      },
      $defs: { emojiRequest: { type: "string", maxLength: 8, default: "📄" } },
    });
    const listed = listManagerTools(runtime.manager).find((t) => t.tool === "create_page")!;
    assert.ok("databaseRequest" in (listed.inputSchema.$defs as Json));
  } finally {
    step.release();
    await runtime.shutdown();
  }
});
