/**
 * A 20-step Claude turn's request bytes (#23 "Figures": ≤ 1.1× Claude Code's for the same script).
 *
 * Trellis: a real Session on the Anthropic wire (claude-sonnet-4-5, tool_set=auto → Claude Code's
 * tools, thinking on) against the fixture model, which scripts 20 `Bash` steps (`echo step N`, each
 * with a thinking block) and a final answer; every request body it logged is counted.
 *
 * Claude Code, by the same growth model: its first request's fixed part is the capture in
 * fixtures/peers/claude-code-2.1.332-sonnet-4-5.json (its tools, three system blocks with its
 * cache_control placement, thinking, max_tokens); each later request adds, per step, the Messages
 * blocks Claude Code sends for it — the assistant's thinking (same text and signature) and
 * `tool_use {command, description}`, then the user's `tool_result` holding the command's bare output —
 * with the breakpoint on the last user block. The capture has every description and the system
 * prompt's text dropped, so Trellis's bodies are counted the same way: tool and property
 * descriptions and system text removed, i.e. both sides are compared on structure and conversation,
 * not prose. Claude Code's per-turn system reminders are not modelled (they would only add to its side).
 * Run alone: `deno run -A scripts/bench.ts claude_turn_bytes`.
 */
import { Session } from "../../lib/app/mod.ts";
import { loadConfig } from "../../lib/config/mod.ts";
import { noTtyApprover } from "../../lib/loop/mod.ts";
import { platform } from "../../lib/platform/mod.ts";
import { startFixtureModelServer } from "../fixture_model_server.ts";

type BenchRow = { name: string; value: number; unit: string; target: string; pass: boolean };
type Body = Record<string, any>;
const STEPS = 20;
const PROMPT = "Run the twenty steps.";
const thought = (n: number) => `Step ${n}: run it.`;
const signature = (text: string) => `sig:${btoa(text)}`;

/** Every `description` key dropped, recursively (the capture's reduction). */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([k]) => k !== "description").map(([k, v]) => [k, withoutDescriptions(v)]),
    );
  }
  return value;
}

function proseless(body: Body): Body {
  const system = Array.isArray(body.system) ? body.system.map((b: Body) => ({ ...b, text: "" })) : "";
  return { ...body, system, tools: withoutDescriptions(body.tools) };
}

function claudeCodeBodies(): Body[] {
  const capture = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../fixtures/peers/claude-code-2.1.332-sonnet-4-5.json", import.meta.url),
    ),
  );
  const system = capture.cache_control.system_blocks.map((cached: boolean) => ({
    type: "text",
    text: "",
    ...(cached ? { cache_control: { type: "ephemeral" } } : {}),
  }));
  const messages: Body[] = [{ role: "user", content: [{ type: "text", text: PROMPT }] }];
  const bodies: Body[] = [];
  const snapshot = () => {
    const copy = structuredClone(messages);
    copy.at(-1)!.content.at(-1).cache_control = { type: "ephemeral" };
    bodies.push({
      model: "claude-sonnet-4-5",
      max_tokens: capture.max_tokens,
      thinking: capture.thinking,
      system,
      tools: capture.tools,
      messages: copy,
      stream: true,
    });
  };
  for (let n = 1; n <= STEPS; n++) {
    snapshot();
    const id = `toolu_${"0".repeat(24)}`;
    messages.push({
      role: "assistant",
      content: [
        { type: "thinking", thinking: thought(n), signature: signature(thought(n)) },
        {
          type: "tool_use",
          id,
          name: "Bash",
          input: { command: `echo step ${n}`, description: `Step ${n}` },
        },
      ],
    });
    messages.push({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: `step ${n}` }],
    });
  }
  snapshot();
  return bodies;
}

async function trellisBodies(): Promise<Body[]> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-bench-claude-bytes-"));
  const cwd = `${root}/ws`;
  await platform.fs.mkdir(`${root}/home/.trellis`);
  await platform.fs.chmod(`${root}/home/.trellis`, 0o700);
  await platform.fs.mkdir(`${root}/etc`);
  await platform.fs.mkdir(cwd);
  const steps = Array.from({ length: STEPS }, (_, i) => ({
    reasoning: thought(i + 1),
    tool_calls: [{
      name: "Bash",
      arguments: { command: `echo step ${i + 1}`, description: `Step ${i + 1}` },
    }],
  }));
  const server = await startFixtureModelServer({
    script: { steps: [...steps, { reasoning: "Done.", text: "All done." }] },
  });
  const env: Record<string, string> = {
    HOME: `${root}/home`,
    TRELLIS_HOME: `${root}/home/.trellis`,
    TRELLIS_SYSTEM_DIR: `${root}/etc`,
    PATH: platform.env("PATH") ?? "/usr/bin:/bin",
    SHELL: "/bin/sh",
    ANTHROPIC_API_KEY: "sk-ant-bench",
    ANTHROPIC_BASE_URL: server.url.replace(/\/v1$/, ""),
  };
  try {
    const loaded = await loadConfig(platform.fs, {
      cwd,
      env: (name) => env[name],
      overrides: [
        "model_provider=anthropic",
        "model=claude-sonnet-4-5",
        "model_reasoning_effort=high",
        "skills.bundled.enabled=false",
        "tool_set=auto",
      ],
    });
    const session = await Session.open({
      platform: { ...platform, env: (name) => env[name], envAll: () => ({ ...env }) },
      loaded,
      events: () => {},
      approver: noTtyApprover,
    });
    await session.start(new AbortController().signal);
    const result = await session.runTurn({
      prompt: PROMPT,
      maxSteps: STEPS + 2,
      signal: new AbortController().signal,
    });
    await session.close();
    if (result.status !== "completed") throw new Error(`the turn ended ${result.status}`);
    return server.requests as Body[];
  } finally {
    await server.close();
    await platform.fs.remove(root, { recursive: true });
  }
}

const bytes = (bodies: Body[]) =>
  bodies.reduce((sum, b) => sum + new TextEncoder().encode(JSON.stringify(b)).length, 0);

export async function bench(): Promise<BenchRow[]> {
  const ours = await trellisBodies();
  const theirs = claudeCodeBodies();
  const t = bytes(ours.map(proseless));
  const c = bytes(theirs);
  const lastT = bytes([proseless(ours.at(-1)!)]);
  const lastC = bytes([theirs.at(-1)!]);
  return [
    {
      name: `reference: Claude Code, ${theirs.length} requests, by the growth model (prose aside)`,
      value: c,
      unit: "B",
      target: "reference",
      pass: true,
    },
    {
      name: `Trellis, ${ours.length} requests logged by the fixture model (prose aside)`,
      value: t,
      unit: "B",
      target: "report",
      pass: true,
    },
    {
      name: "Trellis, with its descriptions and system prompt (info)",
      value: bytes(ours),
      unit: "B",
      target: "info",
      pass: true,
    },
    {
      name: "last request: Trellis ÷ Claude Code (info)",
      value: Math.round((lastT / lastC) * 100) / 100,
      unit: "×",
      target: "info",
      pass: true,
    },
    {
      name: "20-step Claude turn request bytes: Trellis ÷ Claude Code",
      value: Math.round((t / c) * 100) / 100,
      unit: "×",
      target: "≤ 1.1",
      pass: t / c <= 1.1,
    },
  ];
}
