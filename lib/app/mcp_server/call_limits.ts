import * as path from "node:path";
import { isTable, type LoadedConfig, splitKeyPath, type TrellisConfig } from "../../config/mod.ts";
import { isWithinPath } from "../../platform/mod.ts";
import { approvalsWithin, approvalWithin, SANDBOX_ORDER, sandboxWithin } from "./setting_order.ts";
import type { TrellisArguments } from "./tool_arguments.ts";

/**
 * A served call may only tighten the operator's settings (the server's flags and config files):
 * whoever can call the server — another local user, a sandboxed command with the network on — must
 * not get more than the operator gave. Each check returns the tool error naming the argument, or
 * null.
 */

export interface OperatorLimits {
  /** The server's working directory, canonical: a call's cwd must lie inside it. */
  workspace: string;
  /** `--allow-config-overrides`: a call's `config` may set the operator-only keys below. */
  allowConfigOverrides: boolean;
}

/** Keys a call's `config` may set freely (unless the operator set them with `-c`). */
const FREE_KEYS = new Set([
  "model",
  "model_context_window",
  "model_reasoning_effort",
  "instructions",
  "project_doc_max_bytes",
  "project_doc_fallback_filenames",
  "project_doc_claude_md",
  "tool_output_max_bytes",
  "max_steps",
  "model_auto_compact_token_limit",
  "compact_prompt",
  "elide_tool_outputs_after_turns",
  "mcp_startup_grace_sec",
  "tool_search",
  "tool_search_context_share",
  "profile",
]);

/** Keys a call may set only to something no looser than the operator's (checked on the result). */
const TIGHTEN_ONLY_KEYS = new Set(["sandbox_mode", "approval_policy", "sandbox_workspace_write"]);

/**
 * What each operator-only key controls. Every other key (a section added later included) is
 * operator-only too: the safe side for a key nobody classified.
 */
const OPERATOR_KEYS: Record<string, string> = {
  mcp_servers: "adds or changes MCP servers (programs the session starts)",
  hooks: "adds or changes hooks (commands the session runs)",
  plugins: "enables or changes plugins (their hooks and MCP servers run)",
  marketplaces: "changes plugin marketplaces",
  compat: "changes which files of other agents are read (their MCP servers and hooks)",
  projects: "changes project trust (a trusted project's config, servers and hooks load)",
  project_root_markers: "changes which project config layers load",
  profiles: "defines profiles",
  skills: "changes the skills the session loads",
  model_provider: "changes the model provider (where the conversation is sent)",
  model_providers: "adds or changes model providers (base URLs, headers, keys)",
  mcp_require_sandbox: "changes whether MCP servers must be confined",
  mcp_tool_pinning: "changes MCP tool pinning",
  permissions: "changes permission rules (an allow rule answers approvals unasked)",
};

export function callCwdProblem(limits: OperatorLimits, cwd: string): string | null {
  if (isWithinPath(limits.workspace, cwd)) return null;
  return refusal(
    "cwd",
    `${cwd} is outside the server's workspace ${limits.workspace} (a call's cwd must lie inside it)`,
  );
}

/**
 * The call's `config` (and `model`) against the key classes above and the operator's `-c` flags: a
 * key the operator set with `-c` is a cap the call cannot change (the tighten-only keys excepted,
 * which are compared on the result).
 */
export function callConfigProblem(
  limits: OperatorLimits,
  args: TrellisArguments,
  operator: LoadedConfig,
): string | null {
  const flags = (operator.layers.find((l) => l.kind === "session")?.table ?? {}) as Record<string, unknown>;
  const entries: [string, string[], unknown][] = Object.entries(args.config ?? {}).map((
    [key, value],
  ) => [`config.${key}`, splitKeyPath(key), value]);
  if (args.model !== undefined) entries.push(["model", ["model"], args.model]);
  for (const [field, keyPath, value] of entries) {
    const top = keyPath[0];
    if (!FREE_KEYS.has(top) && !TIGHTEN_ONLY_KEYS.has(top) && !limits.allowConfigOverrides) {
      const what = OPERATOR_KEYS[top] ?? "is an operator setting";
      return refusal(
        field,
        `${what}; only the operator may (start the server with --allow-config-overrides to let calls set it)`,
      );
    }
    if (TIGHTEN_ONLY_KEYS.has(top)) continue;
    for (const [leafPath, leaf] of leaves(keyPath, value)) {
      const capped = cappedBy(flags, leafPath);
      if (capped && !(capped.path.length === leafPath.length && sameValue(capped.value, leaf))) {
        return refusal(
          field,
          `the operator set ${capped.path.join(".")} with -c (${
            JSON.stringify(capped.value)
          }); a call cannot change it`,
        );
      }
    }
  }
  return null;
}

/**
 * The session's settings against the operator's, at the same cwd: sandbox mode, approval policy
 * and the workspace-write sandbox's network, writable roots, sockets and temp dir. Catches every
 * way of getting there — the named arguments, `config`, a `profile` (its own settings, or the
 * operator's profile it replaces).
 */
export function looserSettingProblem(
  args: TrellisArguments,
  operator: LoadedConfig,
  session: LoadedConfig,
  cwd: string,
): string | null {
  const base = operator.config;
  const mine = session.config;
  const sandbox = mine.sandbox_mode ?? "workspace-write";
  const baseSandbox = base.sandbox_mode ?? "workspace-write";
  if (!sandboxWithin(sandbox, baseSandbox)) {
    return refusal(
      culprit("sandbox_mode", "sandbox", args, session),
      `sandbox_mode "${sandbox}" is looser than the server's "${baseSandbox}" (a call may only tighten it: ${
        SANDBOX_ORDER.join(" < ")
      })`,
    );
  }
  const policy = mine.approval_policy ?? "on-request";
  const basePolicy = base.approval_policy ?? "on-request";
  if (!approvalWithin(policy, basePolicy)) {
    return refusal(
      culprit("approval_policy", "approval-policy", args, session),
      `approval_policy "${policy}" is looser than the server's "${basePolicy}" (a call may only tighten it; ` +
        `with "${basePolicy}": ${approvalsWithin(basePolicy).join(", ")})`,
    );
  }
  return workspaceWriteProblem(args, base, mine, cwd, session);
}

function workspaceWriteProblem(
  args: TrellisArguments,
  base: TrellisConfig,
  mine: TrellisConfig,
  cwd: string,
  session: LoadedConfig,
): string | null {
  const b = base.sandbox_workspace_write ?? {};
  const m = mine.sandbox_workspace_write ?? {};
  const field = (key: string) => culprit(`sandbox_workspace_write.${key}`, undefined, args, session);
  if (m.network_access === true && b.network_access !== true) {
    return refusal(
      field("network_access"),
      "turns the sandbox's network on; the server's settings keep it off",
    );
  }
  if (b.exclude_tmpdir_env_var === true && m.exclude_tmpdir_env_var !== true) {
    return refusal(
      field("exclude_tmpdir_env_var"),
      "makes the temp dir writable; the server's settings exclude it",
    );
  }
  for (const key of ["writable_roots", "allow_unix_sockets"] as const) {
    const allowed = new Set((b[key] ?? []).map((p) => path.resolve(cwd, p)));
    const added = (m[key] ?? []).find((p) => !allowed.has(path.resolve(cwd, p)));
    if (added !== undefined) {
      return refusal(field(key), `adds ${JSON.stringify(added)}, which the server's settings do not have`);
    }
  }
  return null;
}

/**
 * The argument that brought a key's value in: the session layer holds the operator's `-c` and the
 * call's settings, and the operator's alone never loosen, so `-c` means the call's named argument
 * or its `config`; any other source (a file, a profile) came in through the call's profile.
 */
function culprit(
  key: string,
  named: "sandbox" | "approval-policy" | undefined,
  args: TrellisArguments,
  session: LoadedConfig,
): string {
  if (session.provenance.get(key) === "-c") {
    return named !== undefined && args[named] !== undefined ? named : `config.${key}`;
  }
  return args.profile !== undefined ? "profile" : "config.profile";
}

/** The leaves a value sets under `keyPath` (a table sets each of its keys). */
function leaves(keyPath: string[], value: unknown): [string[], unknown][] {
  if (!isTable(value) || Object.keys(value).length === 0) return [[keyPath, value]];
  return Object.entries(value).flatMap(([k, v]) => leaves([...keyPath, k], v));
}

/** The operator's `-c` value on `keyPath`'s way: at it, above it, or any below it. */
function cappedBy(
  flags: Record<string, unknown>,
  keyPath: string[],
): { path: string[]; value: unknown } | null {
  let node: unknown = flags;
  for (let i = 0; i < keyPath.length; i++) {
    if (!isTable(node) || !Object.hasOwn(node, keyPath[i])) return null;
    node = node[keyPath[i]];
    if (!isTable(node)) return { path: keyPath.slice(0, i + 1), value: node };
  }
  const below = leaves(keyPath, node)[0];
  return { path: below[0], value: below[1] };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function refusal(field: string, why: string): string {
  return `Not allowed for trellis: "${field}": ${why}`;
}
