import * as path from "node:path";
import { childEnv, type Platform, runCommand } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";

export interface NpmLimits {
  /** Packed archive size; default 50 MiB (Codex's limit). */
  maxArchiveBytes: number;
  /** Unpacked tar size; default 250 MiB. */
  maxUnpackedBytes: number;
}

export const DEFAULT_NPM_LIMITS: NpmLimits = {
  maxArchiveBytes: 50 * 1024 * 1024,
  maxUnpackedBytes: 250 * 1024 * 1024,
};

/**
 * `npm pack --ignore-scripts` into `workDir`, size-checked before anything is unpacked, then unpacked
 * with `tar`; returns the package root (`package/`). No install scripts ever run.
 */
export async function npmFetch(
  platform: Platform,
  options: { spec: string; name?: string; registry?: string; workDir: string; limits?: NpmLimits },
): Promise<string> {
  const limits = options.limits ?? DEFAULT_NPM_LIMITS;
  const args = ["pack", "--ignore-scripts", "--silent", "--pack-destination", options.workDir];
  if (options.registry) args.push("--registry", options.registry);
  const env = childEnv(platform.envAll(), { passThrough: ["npm_config_cache", "NPM_CONFIG_USERCONFIG"] });
  const packed = await runCommand(platform, {
    cmd: ["npm", ...args, "--", options.spec],
    cwd: options.workDir,
    env,
  });
  const fail = (state: string) => new UsageError(`Cannot fetch npm package "${options.spec}": ${state}`);
  if (packed.code !== 0) {
    throw fail((packed.stderr || packed.error || "npm pack failed").trim().split("\n")[0]);
  }
  const archiveName = (await platform.fs.readDir(options.workDir)).find((e) => e.name.endsWith(".tgz"))?.name;
  if (!archiveName) throw fail("npm pack produced no archive");
  const archive = path.join(options.workDir, archiveName);
  const info = await platform.fs.stat(archive);
  if ((info?.size ?? 0) > limits.maxArchiveBytes) {
    throw fail(`archive is ${info?.size} bytes, over the ${limits.maxArchiveBytes}-byte limit`);
  }
  // node:zlib loads here, not with the plugin store every command opens (~10 ms in the binary).
  const { gunzipSync } = await import("node:zlib");
  try {
    gunzipSync(await platform.fs.readFile(archive), { maxOutputLength: limits.maxUnpackedBytes });
  } catch {
    throw fail(`unpacked size is over the ${limits.maxUnpackedBytes}-byte limit (or the archive is corrupt)`);
  }
  const unpackDir = path.join(options.workDir, "unpacked");
  await platform.fs.mkdir(unpackDir);
  const untar = await runCommand(platform, {
    cmd: ["tar", "-xzf", archive, "-C", unpackDir, "--no-same-owner", "--no-same-permissions"],
    env: childEnv(platform.envAll()),
  });
  if (untar.code !== 0) throw fail(`cannot unpack: ${untar.stderr.trim()}`);
  const root = path.join(unpackDir, "package");
  await checkPackageName(platform, root, options.name, fail);
  return root;
}

async function checkPackageName(
  platform: Platform,
  root: string,
  expected: string | undefined,
  fail: (state: string) => UsageError,
): Promise<void> {
  let name: unknown;
  try {
    name = JSON.parse(await platform.fs.readTextFile(path.join(root, "package.json"))).name;
  } catch {
    throw fail("the archive has no readable package/package.json");
  }
  if (expected && name !== expected) throw fail(`package.json name "${name}" is not "${expected}"`);
}
