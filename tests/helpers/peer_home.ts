/**
 * A fake `~/.codex` and `~/.claude` (plus `~/.claude.json`) written into a temp HOME, shaped like the
 * real files a Codex or Claude Code user has: keys Trellis does not use beside the ones it does,
 * Claude Code's per-project state, an installed-plugins list with one enabled and one disabled plugin.
 * Written here, never copied from a real machine.
 */
import * as path from "node:path";
import { platform } from "../../lib/platform/mod.ts";

const fs = platform.fs;
export const FIXTURE_MCP = new URL("../../fixtures/mcp/fixture_server.mjs", import.meta.url).pathname;

export interface PeerHome {
  home: string;
  codexHome: string;
  claudeDir: string;
  claudeJson: string;
  /** The project the per-project `~/.claude.json` entry is for. */
  project: string;
  /** The enabled Claude plugin's installed copy. */
  pluginRoot: string;
}

async function write(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file));
  await fs.writeTextFile(file, text);
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

/** Codex's config.toml: model settings, TUI and notify keys, project trust, one MCP server, hooks. */
export function codexConfigToml(): string {
  return `# Codex CLI settings
model = "o3"
model_reasoning_effort = "high"
approval_policy = "never"
sandbox_mode = "danger-full-access"
notify = ["notify-send", "Codex"]
file_opener = "vscode"

[tui]
notifications = true

[features]
web_search_request = true

[history]
persistence = "save-all"

[projects."/srv/elsewhere"]
trust_level = "trusted"

[mcp_servers.codex_fx]
command = "node"
args = [${JSON.stringify(FIXTURE_MCP)}, "echo", "\${NOT_EXPANDED}"]
env = { LOG_LEVEL = "warn" }
startup_timeout_sec = 20
tool_timeout_sec = 60

[[hooks.PreToolUse]]
matcher = "Bash"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "echo codex-guard"
timeout = 30

[hooks.state."/elsewhere/config.toml:pre_tool_use:0:0"]
trusted_hash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"
`;
}

/**
 * `~/.claude.json` as Claude Code keeps it: start counts, tips, account and per-project state
 * (allowed tools, history, trust-dialog flags), a user-scope server and this project's local server.
 */
export function claudeJsonValue(
  project: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    numStartups: 214,
    installMethod: "native",
    autoUpdates: false,
    theme: "dark",
    tipsHistory: { "new-user-warmup": 1, "plan-mode-for-complex-tasks": 17, "memory-command": 40 },
    userID: "0f3c9a0d8e",
    firstStartTime: "2025-11-02T09:14:51.000Z",
    oauthAccount: { accountUuid: "a-1", emailAddress: "me@example.com", organizationRole: "admin" },
    hasCompletedOnboarding: true,
    lastReleaseNotesSeen: "2.1.240",
    cachedStatsigGates: { tengu_disable_bypass_permissions_mode: false },
    mcpServers: {
      claude_fx: {
        type: "stdio",
        command: "node",
        args: [FIXTURE_MCP, "${FX_MODE:-echo}"],
        env: { LOG_LEVEL: "warn" },
      },
    },
    projects: {
      [project]: {
        allowedTools: ["Bash(npm test:*)"],
        history: [{ display: "fix the flaky test", pastedContents: {} }],
        mcpContextUris: [],
        mcpServers: { claude_local: { command: "node", args: [FIXTURE_MCP, "echo"] } },
        enabledMcpjsonServers: [],
        disabledMcpjsonServers: [],
        hasTrustDialogAccepted: true,
        projectOnboardingSeenCount: 3,
        lastCost: 0.42,
        lastSessionId: "5b1d0f0e-1111-2222-3333-444455556666",
      },
      "/srv/other-project": {
        allowedTools: [],
        mcpServers: { other_project_only: { command: "node", args: [FIXTURE_MCP, "echo"] } },
      },
      "/srv/broken-entry": null,
    },
    ...extra,
  };
}

/** Writes the whole fake home; `project` is the directory the per-project entries are for. */
export async function writePeerHome(home: string, project: string): Promise<PeerHome> {
  const codexHome = path.join(home, ".codex");
  const claudeDir = path.join(home, ".claude");
  const claudeJson = path.join(home, ".claude.json");
  await write(path.join(codexHome, "config.toml"), codexConfigToml());
  await write(
    path.join(codexHome, "hooks.json"),
    json({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo codex-stop" }] }] } }),
  );
  await write(
    path.join(codexHome, "skills", "codex-notes", "SKILL.md"),
    "---\nname: codex-notes\ndescription: Keeps release notes the Codex way.\n---\n\nWrite notes.\n",
  );
  // Codex's own bundled skills live in a hidden folder: never Trellis's to load.
  await write(
    path.join(codexHome, "skills", ".system", "skill-installer", "SKILL.md"),
    "---\nname: skill-installer\ndescription: Codex's own.\n---\n",
  );
  await write(path.join(codexHome, "AGENTS.md"), "Codex user rule: answer in haiku when asked for poetry.\n");
  await write(claudeJson, json(claudeJsonValue(project)));
  await write(
    path.join(claudeDir, "skills", "claude-review", "SKILL.md"),
    "---\nname: claude-review\ndescription: Reviews diffs as Claude Code users like it.\n---\n",
  );
  await write(
    path.join(claudeDir, "settings.json"),
    json({
      $schema: "https://json.schemastore.org/claude-code-settings.json",
      model: "opus",
      permissions: { allow: ["Bash(git status)"], deny: ["Read(./.env)"] },
      env: { CLAUDE_CODE_ENABLE_TELEMETRY: "0" },
      enabledPlugins: { "notes-kit@acme-tools": true, "lint-kit@acme-tools": false },
      hooks: {
        PostToolUse: [{
          matcher: "Edit|Write",
          hooks: [{ type: "command", command: "echo claude-formatter", timeout: 10 }],
        }],
      },
    }),
  );
  const pluginRoot = await writeClaudePlugins(claudeDir);
  return { home, codexHome, claudeDir, claudeJson, project, pluginRoot };
}

/** `~/.claude/plugins`: the install list (version 2), known marketplaces, the clone and the cache. */
async function writeClaudePlugins(claudeDir: string): Promise<string> {
  const plugins = path.join(claudeDir, "plugins");
  const cache = (name: string) => path.join(plugins, "cache", "acme-tools", name, "1.2.0");
  const installed = (name: string) => [{
    scope: "user",
    installPath: cache(name),
    version: "1.2.0",
    installedAt: "2026-05-01T10:00:00.000Z",
    lastUpdated: "2026-05-03T10:00:00.000Z",
    gitCommitSha: "4f2a9c1e0b7d",
  }];
  await write(
    path.join(plugins, "installed_plugins.json"),
    json({
      version: 2,
      plugins: {
        "notes-kit@acme-tools": installed("notes-kit"),
        "lint-kit@acme-tools": installed("lint-kit"),
      },
    }),
  );
  const clone = path.join(plugins, "marketplaces", "acme-tools");
  await write(
    path.join(plugins, "known_marketplaces.json"),
    json({
      "acme-tools": {
        source: { source: "github", repo: "acme/claude-tools" },
        installLocation: clone,
        lastUpdated: "2026-05-03T10:00:00.000Z",
      },
    }),
  );
  await write(
    path.join(clone, ".claude-plugin", "marketplace.json"),
    json({
      name: "acme-tools",
      owner: { name: "Acme" },
      plugins: [
        // The entry supplements plugin.json (strict by default): its commands are part of the plugin.
        {
          name: "notes-kit",
          source: "./plugins/notes-kit",
          description: "Notes.",
          commands: ["./extra-commands/"],
        },
        { name: "lint-kit", source: "./plugins/lint-kit", description: "Lint." },
      ],
    }),
  );
  for (const name of ["notes-kit", "lint-kit"]) {
    const root = cache(name);
    await write(
      path.join(root, ".claude-plugin", "plugin.json"),
      json({ name, version: "1.2.0", description: name }),
    );
    await write(
      path.join(root, "skills", `${name}-skill`, "SKILL.md"),
      `---\nname: ${name}-skill\ndescription: A skill of ${name}.\n---\n`,
    );
    await write(
      path.join(root, "hooks", "hooks.json"),
      json({
        hooks: {
          SessionStart: [{ hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/scripts/start.sh" }] }],
        },
      }),
    );
    await write(
      path.join(root, ".mcp.json"),
      json({
        mcpServers: { [`${name.replace("-", "_")}_fx`]: { command: "node", args: [FIXTURE_MCP, "echo"] } },
      }),
    );
  }
  await write(
    path.join(cache("notes-kit"), "extra-commands", "summarize.md"),
    "---\ndescription: Summarize notes\n---\nSummarize $ARGUMENTS\n",
  );
  return cache("notes-kit");
}
