import { detectSandbox, type Platform, platform, type SandboxStatus } from "../../lib/platform/mod.ts";
import type { ToolDefinition } from "../../lib/shared/mod.ts";
import { createBuiltinTools, type PermissionProfile } from "../../lib/tools/mod.ts";

/** A workspace, a temp dir (both writable roots), and `outside`, beyond every root. */
export interface Box {
  root: string;
  ws: string;
  tmp: string;
  outside: string;
  home: string;
}

export async function makeBox(): Promise<Box> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-approvals-"));
  const box = {
    root,
    ws: `${root}/ws`,
    tmp: `${root}/tmp`,
    outside: `${root}/outside`,
    home: `${root}/home`,
  };
  for (const dir of [box.ws, box.tmp, box.outside, box.home]) await platform.fs.mkdir(dir);
  return box;
}

export async function removeBox(box: Box): Promise<void> {
  await platform.fs.remove(box.root, { recursive: true });
}

/** The real bubblewrap sandbox; these tests need it (CI installs bwrap), so its absence fails them. */
export async function realSandbox(): Promise<SandboxStatus & { available: true }> {
  const status = await detectSandbox(platform);
  if (!status.available) throw new Error(`these tests need bwrap: ${status.reason}`);
  return status;
}

/** The real built-in tools (shell under real bwrap, file tools with real path checks) for `box`. */
export function realTools(
  box: Box,
  profile: Partial<PermissionProfile>,
  sandbox: SandboxStatus,
): ToolDefinition[] {
  const env = { PATH: platform.env("PATH") ?? "/usr/bin:/bin", HOME: box.home, LANG: "C.UTF-8" };
  const quiet: Platform = {
    ...platform,
    env: (name) => env[name as keyof typeof env],
    envAll: () => ({ ...env }),
  };
  return createBuiltinTools({
    platform: quiet,
    profile: {
      sandboxMode: "workspace-write",
      approvalPolicy: "on-request",
      workspace: box.ws,
      writableRoots: [box.ws, box.tmp],
      readableRoots: [],
      networkAccess: false,
      ...profile,
    },
    sandbox,
  });
}

export async function exists(path: string): Promise<boolean> {
  return (await platform.fs.stat(path)) !== null;
}
