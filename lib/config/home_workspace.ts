import { canonicalPath, isWithinPath } from "../platform/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import { BUILT_IN_DEFAULTS, HOME_WORKSPACE_SANDBOX_MODE } from "./defaults.ts";
import type { TrellisPaths } from "./paths.ts";
import type { TrellisConfig } from "./schema/mod.ts";

/** The built-in layer's `source` in provenance: a key with it was set by no file, flag or profile. */
const BUILT_IN_SOURCE = "built-in";

/**
 * Whether the workspace is the home directory or contains it (`~`, `/home`, `/`): there the
 * workspace's writable root covers `~/.bashrc`, `~/.ssh` and every other project of the user.
 */
export function workspaceHoldsHome(paths: Pick<TrellisPaths, "cwd" | "userHome">): boolean {
  return isWithinPath(paths.cwd, canonicalPath(paths.userHome));
}

/**
 * #20 item 5: started in `$HOME` (or above it), the built-in `sandbox_mode` becomes "read-only",
 * with a warning. A mode the user chose — `-s`, `sandbox_mode` in any config layer or the selected
 * profile — is kept (and warned about when it writes). Changes `merged` in place; returns the warning.
 */
export function homeWorkspaceSandbox(
  merged: TrellisConfig,
  provenance: Map<string, string>,
  paths: Pick<TrellisPaths, "cwd" | "userHome">,
): Diagnostic | undefined {
  if (!workspaceHoldsHome(paths)) return undefined;
  const where = paths.cwd === canonicalPath(paths.userHome)
    ? `is your home directory`
    : `contains your home directory (${paths.userHome})`;
  const chosenBy = provenance.get("sandbox_mode");
  if (chosenBy === undefined || chosenBy === BUILT_IN_SOURCE) {
    merged.sandbox_mode = HOME_WORKSPACE_SANDBOX_MODE;
    return {
      level: "warning",
      message:
        `The workspace "${paths.cwd}" ${where}: sandbox_mode defaults to "${HOME_WORKSPACE_SANDBOX_MODE}" ` +
        `here instead of "${BUILT_IN_DEFAULTS.sandbox_mode}" (start in a project directory, or choose with ` +
        `-s workspace-write or sandbox_mode in config)`,
    };
  }
  if (merged.sandbox_mode === "read-only") return undefined;
  return {
    level: "warning",
    message: `The workspace "${paths.cwd}" ${where}: sandbox_mode = "${merged.sandbox_mode}" (${chosenBy}) ` +
      `lets commands write your start-up files and keys there`,
  };
}
