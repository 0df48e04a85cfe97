import * as path from "node:path";
import type { LoadedConfig } from "./loaded_config.ts";
import type { TrellisPaths } from "./paths.ts";
import type { CompatSwitch } from "./schema/compat.ts";
import type { TrellisConfig } from "./schema/mod.ts";

/** True unless `[compat] <name> = false`: every peer file is read in place by default. */
export function compatEnabled(config: TrellisConfig, name: CompatSwitch): boolean {
  return config.compat?.[name] !== false;
}

/** One file or folder of another agent that Trellis reads in place, and the switch that governs it. */
export interface CompatFile {
  /** The config key that turns it off, e.g. `compat.codex_config`. */
  key: string;
  path: string;
  enabled: boolean;
  /** What Trellis takes from it. */
  reads: string;
}

/**
 * Every peer file Trellis reads in place, for `config show`: Codex's home (`$CODEX_HOME`), Claude
 * Code's files (`$CLAUDE_CONFIG_DIR`, `~/.claude.json`), Gemini CLI's and Copilot CLI's hook files,
 * each with its switch.
 */
export function compatFiles(loaded: Pick<LoadedConfig, "config" | "paths">): CompatFile[] {
  const { config, paths } = loaded;
  const on = (name: CompatSwitch) => compatEnabled(config, name);
  return [
    entry(
      "compat.codex_config",
      codexConfigFile(paths),
      on("codex_config"),
      "[mcp_servers], [hooks], model keys (model, model_reasoning_effort, model_context_window, model_provider, model_providers)",
    ),
    entry("compat.codex_hooks", path.join(paths.codexHome, "hooks.json"), on("codex_hooks"), "hooks"),
    entry("compat.codex_skills", path.join(paths.codexHome, "skills"), on("codex_skills"), "skills"),
    entry(
      "compat.codex_agents_md",
      path.join(paths.codexHome, "AGENTS.md"),
      on("codex_agents_md"),
      "instructions (AGENTS.override.md first)",
    ),
    entry("compat.claude_json", paths.claudeJson, on("claude_json"), "mcpServers (user, this project's)"),
    entry(
      "compat.claude_plugins",
      path.join(paths.claudeDir, "plugins"),
      on("claude_plugins"),
      "installed plugins enabled in settings.json",
    ),
    entry(
      "compat.claude_permissions",
      path.join(paths.claudeDir, "settings.json"),
      on("claude_permissions"),
      "permissions allow/ask/deny (and a trusted project's .claude/settings*.json: ask/deny only)",
    ),
    entry(
      "compat.gemini",
      path.join(paths.geminiDir, "settings.json"),
      on("gemini"),
      "hooks (and a trusted project's .gemini/settings.json); the extensions under extensions/: their " +
        "hooks/hooks.json, mcpServers and context files",
    ),
    entry(
      "compat.copilot",
      path.join(paths.copilotHome, "hooks"),
      on("copilot"),
      "hooks/*.json (and a trusted project's .github/hooks/*.json)",
    ),
    entry(
      "hooks.claude_code",
      path.join(paths.claudeDir, "settings.json"),
      config.hooks?.claude_code !== false,
      "hooks (and a trusted project's .claude/settings*.json)",
    ),
    entry(
      "skills.claude_code",
      path.join(paths.claudeDir, "skills"),
      config.skills?.claude_code !== false,
      "skills (and the project's .claude/skills)",
    ),
    entry(
      "project_doc_claude_md",
      path.join(paths.claudeDir, "CLAUDE.md"),
      config.project_doc_claude_md !== false,
      "instructions (and the project's CLAUDE.md files)",
    ),
  ];
}

function entry(key: string, file: string, enabled: boolean, reads: string): CompatFile {
  return { key, path: file, enabled, reads };
}

/** `$CODEX_HOME/config.toml`. */
export function codexConfigFile(paths: Pick<TrellisPaths, "codexHome">): string {
  return path.join(paths.codexHome, "config.toml");
}
