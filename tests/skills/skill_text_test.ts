import assert from "node:assert/strict";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { extractFrontmatter, parseSkillText, sanitizeSingleLine } from "../../lib/skills/mod.ts";

const parse = (text: string, dirName = "dir", namespace?: string) =>
  parseSkillText(text, { dirName, namespace }, parseYaml);

Deno.test("parseSkillText() without the full YAML parser asks for it only off the fast path", () => {
  const simple = "---\nname: a\ndescription: plain words\n---\n";
  assert.deepStrictEqual(parseSkillText(simple, { dirName: "a" }), parse(simple));
  const quoted = '---\nname: "a"\ndescription: "quoted: words"\n---\n';
  const first = parseSkillText(quoted, { dirName: "a" });
  assert.equal(!first.ok && first.needsParser, true);
  assert.equal(parse(quoted).ok, true);
});

Deno.test("parseSkillText() returns name, sanitized description and extras when the frontmatter is valid (SK-5)", () => {
  const text =
    "---\nname: pdf\ndescription: |\n  Fill\n  forms.\nmetadata:\n  short-description: '  PDF   forms '\n" +
    "  author: me\nlicense: MIT\nallowed-tools: [Read, Bash]\n---\nBODY";
  assert.deepStrictEqual(parse(text), {
    ok: true,
    notes: [],
    value: {
      name: "pdf",
      description: "Fill forms.",
      shortDescription: "PDF forms",
      disableModelInvocation: false,
      extra: {
        license: "MIT",
        allowedTools: ["Read", "Bash"],
        metadata: { "short-description": "PDF forms", author: "me" },
      },
    },
  });
});

Deno.test("parseSkillText() reports Codex's error texts when required parts are missing or too long (SK-5)", () => {
  const cases: [string, string][] = [
    ["no frontmatter", "missing YAML frontmatter delimited by ---"],
    ["---\nname: x\ndescription: y\n", "missing YAML frontmatter delimited by ---"],
    ["---\n---\nbody", "missing YAML frontmatter delimited by ---"],
    ["---\nname: x\n---\n", "missing field `description`"],
    ['---\ndescription: "   "\n---\n', "missing field `description`"],
    [
      `---\nname: ${"a".repeat(65)}\ndescription: d\n---\n`,
      "invalid name: exceeds maximum length of 64 characters",
    ],
  ];
  for (const [text, error] of cases) assert.deepStrictEqual(parse(text), { ok: false, error }, text);
  const invalid = parse('---\nname: x\ndescription: "open\n---\n');
  assert.ok(!invalid.ok && invalid.error.startsWith("invalid YAML: "));
});

Deno.test("parseSkillText() repairs an unquoted value containing ': ' when YAML rejects it (SK-5)", () => {
  assert.deepStrictEqual(parse("---\nname: aws\ndescription: Build for AWS: ECS\n---\n"), {
    ok: true,
    notes: [],
    value: { name: "aws", description: "Build for AWS: ECS", disableModelInvocation: false, extra: {} },
  });
});

Deno.test("parseSkillText() cuts a description over 1,024 characters to its first 1,024 with a note, not an error (SK-5)", () => {
  // anthropics/skills' claude-api ships a description of this kind; Codex loads it.
  const long = "Build apps with the Claude API. ".repeat(34) + "é".repeat(10);
  const chars = [...long].length;
  const result = parse(
    `---\nname: api\ndescription: "${long}"\nmetadata:\n  short-description: "${long}"\n---\n`,
  );
  assert.deepStrictEqual(result, {
    ok: true,
    notes: [
      `description is ${chars} characters; only its first 1024 are used`,
      `metadata.short-description is ${chars} characters; only its first 1024 are used`,
    ],
    value: {
      name: "api",
      description: [...long].slice(0, 1024).join("").trimEnd(),
      shortDescription: [...long].slice(0, 1024).join("").trimEnd(),
      disableModelInvocation: false,
      // The raw metadata is kept as written, for display.
      extra: { metadata: { "short-description": long } },
    },
  });
});

Deno.test("parseSkillText() splits allowed-tools on commas and spaces outside a rule's parentheses", () => {
  const result = parse(
    "---\nname: c\ndescription: d\nallowed-tools: Bash(git add:*), Bash(git status:*) Read\n---\n",
  );
  assert.deepStrictEqual(result.ok && result.value.extra.allowedTools, [
    "Bash(git add:*)",
    "Bash(git status:*)",
    "Read",
  ]);
});

Deno.test("parseSkillText() defaults the name to the directory and qualifies plugin names", () => {
  const result = parse("---\ndescription: d\n---\n", "my  tool", "acme");
  assert.deepStrictEqual(result.ok && result.value.name, "acme:my tool");
  const long = parse(`---\nname: ${"n".repeat(64)}\ndescription: d\n---\n`, "x", "p".repeat(64));
  assert.deepStrictEqual(long, {
    ok: false,
    error: "invalid qualified name: exceeds maximum length of 128 characters",
  });
});

Deno.test("extractFrontmatter() accepts CRLF and a BOM and returns the body after the closing line", () => {
  assert.deepStrictEqual(extractFrontmatter("\ufeff---\r\nname: x\r\n---\r\nbody\r\n"), {
    ok: true,
    yaml: "name: x",
    body: "body\r\n",
  });
});

const arbitrarySkillText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 400 }),
  fc.string({ unit: "binary", maxLength: 300 }).map((s) => `---\n${s}\n---\nbody`),
  fc.array(fc.tuple(fc.constantFrom("name", "description", "metadata", "x"), fc.string({ maxLength: 40 })))
    .map((kv) => `---\n${kv.map(([k, v]) => `${k}: ${v}`).join("\n")}\n---\n`),
);

Deno.test("parseSkillText() never throws and is deterministic for arbitrary text (property)", () => {
  fc.assert(
    fc.property(arbitrarySkillText, fc.string({ maxLength: 20 }), (text, dir) => {
      const a = parse(text, dir);
      assert.deepStrictEqual(parse(text, dir), a);
      if (a.ok) {
        assert.ok(a.value.description.length > 0 && [...a.value.name].length <= 64);
        assert.deepStrictEqual(sanitizeSingleLine(a.value.description), a.value.description);
      } else assert.ok(a.error.length > 0);
    }),
    { numRuns: 500 },
  );
});

Deno.test("parseSkillText() round-trips any quoted name and description within the limits (property)", () => {
  const field = fc.string({ minLength: 1, maxLength: 64 }).filter((s) => sanitizeSingleLine(s) !== "");
  fc.assert(
    fc.property(field, field, fc.string({ maxLength: 200 }), (name, description, body) => {
      const text = `---\nname: ${JSON.stringify(name)}\ndescription: ${
        JSON.stringify(description)
      }\n---\n${body}`;
      const result = parse(text);
      assert.deepStrictEqual(result.ok && [result.value.name, result.value.description], [
        sanitizeSingleLine(name),
        sanitizeSingleLine(description),
      ]);
    }),
    { numRuns: 300 },
  );
});

Deno.test("parseSkillText() loads frontmatter fuzzed with extra keys and unquoted colons (property)", () => {
  const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,15}[A-Za-z0-9]$/);
  fc.assert(
    fc.property(word, word, fc.array(word, { maxLength: 3 }), (a, b, extras) => {
      const extraLines = extras.map((e, i) => `x-extra-${i}: ${e}`).join("\n");
      const text = `---\nname: n\ndescription: ${a}: ${b}\n${extraLines}\n---\n`;
      const result = parse(text);
      assert.deepStrictEqual(result.ok && result.value.description, sanitizeSingleLine(`${a}: ${b}`));
    }),
    { numRuns: 300 },
  );
});

Deno.test("sanitizeSingleLine() equals the split-and-join definition for any whitespace mix (SK-5, property)", () => {
  const piece = fc.constantFrom(
    "a",
    "b c",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "x:y",
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 10 }).map((p) => p.join("")), (value) => {
      const reference = value.split(/\s+/).filter((part) => part !== "").join(" ");
      assert.deepStrictEqual(sanitizeSingleLine(value), reference);
    }),
    { numRuns: 500 },
  );
});
