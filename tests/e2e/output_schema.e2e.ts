/**
 * #25 item 3: `exec --output-schema FILE` against the fixture model — the schema as each wire carries
 * it (read back from the server's request log), the answer checked, one repair request, then exit 1;
 * a file that is not a schema is a usage error (exit 2) before any model call.
 */
import assert from "node:assert/strict";
import { startFixtureModelServer } from "../../scripts/fixture_model_server.ts";
import { runTrellis } from "./_binary.ts";
import { e2eSetup } from "./_setup.ts";

const SCHEMA = {
  type: "object",
  properties: { verdict: { type: "string", enum: ["pass", "fail"] }, findings: { type: "integer" } },
  required: ["verdict", "findings"],
  additionalProperties: false,
};

async function withSchema(schema: unknown = SCHEMA) {
  const s = await e2eSetup();
  const file = `${s.root}/schema.json`;
  await Deno.writeTextFile(file, typeof schema === "string" ? schema : JSON.stringify(schema));
  return { s, file };
}

Deno.test("--output-schema on Responses: text.format as Codex 0.171 sends it; a matching answer is printed, exit 0 (#25 item 3)", async () => {
  const { s, file } = await withSchema();
  const server = await startFixtureModelServer({ script: [{ text: '{"verdict":"pass","findings":0}' }] });
  try {
    const run = await runTrellis(
      ["exec", "--output-schema", file, "-o", `${s.root}/out.json`, ...s.flags(server.url), "review"],
      { env: s.env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '{"verdict":"pass","findings":0}\n');
    assert.equal(server.requests.length, 1);
    // Byte for byte what `codex exec --output-schema` sent the same fixture server.
    assert.deepEqual((server.requests[0] as Record<string, unknown>).text, {
      format: { type: "json_schema", strict: true, schema: SCHEMA, name: "codex_output_schema" },
    });
    assert.equal(await Deno.readTextFile(`${s.root}/out.json`), '{"verdict":"pass","findings":0}\n');
  } finally {
    await server.close();
  }
});

Deno.test("--output-schema: a mismatching answer gets one repair request naming what is wrong; the repaired answer passes (#25 item 3)", async () => {
  const { s, file } = await withSchema();
  const server = await startFixtureModelServer({
    script: [{ text: "All good, no findings." }, { text: '{"verdict":"pass","findings":0}' }],
  });
  try {
    const run = await runTrellis([
      "exec",
      "--json",
      "--output-schema",
      file,
      ...s.flags(server.url),
      "review",
    ], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(server.requests.length, 2);
    const repair = JSON.stringify((server.requests[1] as { input: unknown[] }).input.at(-1));
    assert.match(repair, /does not match the required JSON Schema \(the answer is not JSON\)/);
    assert.ok(run.stdout.includes('{\\"verdict\\":\\"pass\\",\\"findings\\":0}'), run.stdout);
  } finally {
    await server.close();
  }
});

Deno.test("--output-schema: still wrong after the repair is exit 1 naming the file and the mismatch; -o is not written (#25 item 3)", async () => {
  const { s, file } = await withSchema();
  const server = await startFixtureModelServer({
    script: [{ text: '{"verdict":"maybe","findings":0}' }, { text: '{"verdict":"pass"}' }, { text: "never" }],
  });
  try {
    const out = `${s.root}/out.json`;
    const run = await runTrellis([
      "exec",
      "--output-schema",
      file,
      "-o",
      out,
      ...s.flags(server.url),
      "review",
    ], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.equal(server.requests.length, 2, "one repair request, not more");
    assert.match(JSON.stringify((server.requests[1] as { input: unknown[] }).input.at(-1)), /allowed values/);
    assert.match(run.stderr, /does not match --output-schema ".*schema\.json" after one repair request/);
    assert.match(run.stderr, /must have required property 'findings'/);
    assert.doesNotMatch(run.stderr, /\s+at\s/);
    assert.equal(await Deno.stat(out).then(() => true, () => false), false);
  } finally {
    await server.close();
  }
});

Deno.test("--output-schema that is not a schema — not JSON, not an object, a bad keyword value, missing — is exit 2 before any model call (#25 item 3)", async () => {
  const server = await startFixtureModelServer({ script: [{ text: "never" }] });
  try {
    for (
      const [content, message] of [
        ["{ verdict: pass", /is not JSON/],
        ["[1, 2]", /is not a JSON Schema: expected a JSON object/],
        ['{"type": "nope"}', /is not a JSON Schema: .*type/],
        ['{"properties": 5}', /is not a JSON Schema/],
      ] as const
    ) {
      const { s, file } = await withSchema(content);
      const run = await runTrellis(["exec", "--output-schema", file, ...s.flags(server.url), "x"], {
        env: s.env,
        cwd: s.workspace,
      });
      assert.equal(run.code, 2, `${content}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.ok(run.stderr.includes(file), run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at\s/); // no stack trace
    }
    const s = await e2eSetup();
    const missing = await runTrellis(["exec", "--output-schema", "nope.json", ...s.flags(server.url), "x"], {
      env: s.env,
      cwd: s.workspace,
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read --output-schema/);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("--output-schema on the Messages wire: StructuredOutput tool forced (tool_choice any); its call is the answer (#25 item 3)", async () => {
  const { s, file } = await withSchema();
  const server = await startFixtureModelServer({
    script: [{ tool_calls: [{ name: "StructuredOutput", arguments: { verdict: "fail", findings: 2 } }] }],
  });
  try {
    const env = {
      ...s.env,
      ANTHROPIC_API_KEY: "sk-ant-e2e",
      ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ""),
    };
    const run = await runTrellis(
      [
        "exec",
        "--output-schema",
        file,
        "-c",
        "model_provider=anthropic",
        "-c",
        "model=claude-sonnet-4-5",
        "go",
      ],
      { env, cwd: s.workspace },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), { verdict: "fail", findings: 2 });
    const [request] = server.requests as Record<string, any>[];
    assert.deepEqual(request.tools.at(-1).name, "StructuredOutput");
    assert.deepEqual(request.tools.at(-1).input_schema, SCHEMA);
    assert.equal(request.tool_choice.type, "any");
    assert.equal(request.text, undefined);
  } finally {
    await server.close();
  }
});
