import { type Platform, platform, type SandboxStatus } from "../../lib/platform/mod.ts";
import type { ToolRunContext } from "../../lib/shared/mod.ts";
import {
  type BuiltinTool,
  createBuiltinTools,
  type EditorFiles,
  type PermissionProfile,
} from "../../lib/tools/mod.ts";

const FIXTURES = new URL("../../fixtures/workspaces/", import.meta.url).pathname;

export interface Sandbox {
  root: string;
  /** A copy of fixtures/workspaces/<name>. */
  ws: string;
  /** Outside every root; holds secret.txt. */
  outside: string;
  /** The profile's temp dir (writable). */
  tmp: string;
}

async function copyTree(from: string, to: string): Promise<void> {
  await platform.fs.mkdir(to);
  for (const entry of await platform.fs.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await platform.fs.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

export async function makeWorkspace(name = "basic"): Promise<Sandbox> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-tools-"));
  await copyTree(`${FIXTURES}${name}`, `${root}/ws`);
  await platform.fs.mkdir(`${root}/outside`);
  await platform.fs.writeTextFile(`${root}/outside/secret.txt`, "secret\n");
  await platform.fs.mkdir(`${root}/tmp`);
  return { root, ws: `${root}/ws`, outside: `${root}/outside`, tmp: `${root}/tmp` };
}

export async function removeWorkspace(box: Sandbox): Promise<void> {
  await platform.fs.remove(box.root, { recursive: true });
}

export function profileFor(box: Sandbox, overrides: Partial<PermissionProfile> = {}): PermissionProfile {
  return {
    sandboxMode: "workspace-write",
    approvalPolicy: "on-request",
    workspace: box.ws,
    writableRoots: [box.ws, box.tmp],
    readableRoots: [],
    networkAccess: false,
    ...overrides,
  };
}

/** The real platform with a small, explicit child environment (no login-profile noise from the real HOME). */
export function platformFor(box: Sandbox): Platform {
  const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", HOME: box.root, LANG: "C.UTF-8" };
  return { ...platform, env: (name) => env[name as keyof typeof env], envAll: () => ({ ...env }) };
}

export function toolsFor(
  box: Sandbox,
  options: {
    profile?: Partial<PermissionProfile>;
    sandbox?: SandboxStatus;
    outputMaxBytes?: number;
    platform?: Platform;
    editor?: EditorFiles;
  } = {},
): Record<string, BuiltinTool> {
  const tools = createBuiltinTools({
    platform: options.platform ?? platformFor(box),
    profile: profileFor(box, options.profile),
    sandbox: options.sandbox ?? { available: false, reason: "bwrap not found" },
    outputMaxBytes: options.outputMaxBytes,
    ...(options.editor ? { editor: options.editor } : {}),
  });
  return Object.fromEntries(tools.map((t) => [t.name, t]));
}

export function runContext(box: Sandbox, overrides: Partial<ToolRunContext> = {}): ToolRunContext {
  return {
    callId: "call_1",
    cwd: box.ws,
    signal: new AbortController().signal,
    emit: () => {},
    escalated: false,
    ...overrides,
  };
}

/** parseArguments → approval → run, the way the loop drives a call. */
export async function call(tool: BuiltinTool, box: Sandbox, raw: unknown, ctx: Partial<ToolRunContext> = {}) {
  const args = tool.parseArguments(raw);
  const approval = tool.approval(args, { cwd: box.ws });
  const result = await tool.run(args, runContext(box, ctx));
  return { approval, result };
}

export async function readIfExists(path: string): Promise<string | null> {
  return (await platform.fs.stat(path)) ? await platform.fs.readTextFile(path) : null;
}
