import {
  type CommandResult,
  detectSandbox,
  holdSandboxMounts,
  platform,
  runCommand,
  sandboxArgv,
  type SandboxPolicy,
  type SandboxRuntime,
  type SandboxStatus,
} from "../../lib/platform/mod.ts";

/** A temp tree for sandbox tests, open to the throwaway user: `ws` (a writable root) and `outside`. */
export interface Box {
  root: string;
  ws: string;
  outside: string;
}

/** uid/gid 65534 (nobody): a user with no rights here, as CI and container users run. */
export const NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"];

export async function makeBox(): Promise<Box> {
  const root = await platform.fs.realPath(await platform.fs.makeTempDir("trellis-sandbox-"));
  const box = { root, ws: `${root}/ws`, outside: `${root}/outside` };
  await platform.fs.mkdir(box.ws);
  await platform.fs.mkdir(box.outside);
  // World-writable, so a failed write as nobody is the sandbox's doing, not the file mode's.
  await platform.fs.chmod(root, 0o755);
  await platform.fs.chmod(box.ws, 0o777);
  await platform.fs.chmod(box.outside, 0o777);
  return box;
}

export async function removeBox(box: Box): Promise<void> {
  await platform.fs.remove(box.root, { recursive: true });
}

export async function runtime(): Promise<SandboxStatus & SandboxRuntime> {
  const status = await detectSandbox(platform);
  if (!status.available) throw new Error(`the sandbox tests need bwrap: ${status.reason}`);
  return status;
}

export function policyFor(box: Box, overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    mode: "workspace-write",
    writableRoots: [box.ws],
    networkAccess: false,
    cwd: box.ws,
    ...overrides,
  };
}

/** Runs `script` with /bin/sh inside the profile, as this user or, with `as`, through setpriv. */
export async function runInSandbox(
  policy: SandboxPolicy,
  script: string,
  options: { as?: string[] } = {},
): Promise<CommandResult> {
  const argv = sandboxArgv(["/bin/sh", "-c", script], policy, await runtime());
  // Prefixed, the argv is a new array: hold its placeholders by hand, as any other spawner must.
  const release = options.as ? holdSandboxMounts(argv) : () => {};
  try {
    return await runCommand(platform, {
      cmd: options.as ? [...options.as, ...argv] : argv,
      cwd: policy.cwd,
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
      timeoutMs: 20_000,
    });
  } finally {
    release();
  }
}

export async function exists(path: string): Promise<boolean> {
  return (await platform.fs.lstat(path)) !== null;
}
