import * as nodePath from "node:path";
import { isWithinPath as isWithin, PROTECTED_NAMES, TRELLIS_HOME_SECRETS } from "../platform/mod.ts";
import type { PermissionProfile } from "./permission_profile.ts";

const NAMES: ReadonlySet<string> = new Set(PROTECTED_NAMES);

/**
 * The protected path a write to `path` would change, if any: `$TRELLIS_HOME`, a user-level file
 * Trellis reads in place or a home secret (`~/.claude.json`, `$CODEX_HOME`, `~/.ssh`, `~/.bashrc`,
 * …: `profile.protectedPaths`), or a `.git`, `.trellis`, `.codex`, `.claude`, `.agents` or
 * `.mcp.json` at any depth below a writable root. They hold what runs outside the sandbox later
 * (hooks, MCP servers, `sandbox_mode` itself), so the file tools write there only with an approval
 * of that write, as the sandbox never lets a command write there.
 */
export function protectedPathOf(profile: PermissionProfile, path: string): string | undefined {
  if (profile.trellisHome && isWithin(profile.trellisHome, path)) return profile.trellisHome;
  const gitDir = profile.gitDirs?.find((dir) => isWithin(dir, path));
  if (gitDir) return gitDir;
  const user = profile.protectedPaths?.find((guarded) => isWithin(guarded, path));
  if (user) return user;
  for (const root of profile.writableRoots) {
    if (!isWithin(root, path)) continue;
    const parts = nodePath.relative(root, path).split("/");
    const at = parts.findIndex((part) => NAMES.has(part));
    if (at >= 0) return nodePath.join(root, ...parts.slice(0, at + 1));
  }
  return undefined;
}

/** The `$TRELLIS_HOME` secret (credentials, config, transcripts, logs) holding `path`, if any. */
export function secretPathOf(profile: PermissionProfile, path: string): string | undefined {
  const home = profile.trellisHome;
  if (!home) return undefined;
  return TRELLIS_HOME_SECRETS.map((name) => nodePath.join(home, name)).find((secret) =>
    isWithin(secret, path)
  );
}
