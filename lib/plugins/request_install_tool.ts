import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { describeError, memo, type ToolDefinition, type ToolResult, TrellisError, z } from "../shared/mod.ts";
import { type InstallCandidate, rememberDeclined } from "./install_candidates.ts";
import { installById, requirePluginId } from "./plugin_operations.ts";
import { type StoreLayout, storeLayout } from "./store_layout.ts";
import { verifyPlugin } from "./verify_plugin.ts";

export interface RequestPluginInstallOptions {
  platform: Platform;
  loaded: LoadedConfig;
  /** From `listInstallCandidates`, captured for this step. */
  candidates: InstallCandidate[];
  /** Asks the person (TTY prompt / client elicitation); resolve false when nobody can answer. */
  confirm(request: { pluginId: string; reason: string }): Promise<boolean>;
  /** Called only after the install is verified: invalidate the PluginCache here. */
  onInstalled(result: { pluginId: string; version: string }): void;
  /** Remember a decline in plugins/declined.json so it is not suggested again (default true). */
  rememberDeclines?: boolean;
  layout?: StoreLayout;
}

const argsSchema = memo(() =>
  z.strictObject({
    tool_id: z.string().check(z.minLength(1)),
    tool_type: z.literal("plugin"),
    suggest_reason: z.string().check(
      z.refine((s) => s.trim().length > 0, "suggest_reason must not be empty"),
    ),
  })
);

type Args = z.infer<ReturnType<typeof argsSchema>>;

const json = (value: unknown, status: ToolResult["status"] = "success"): ToolResult => ({
  output: JSON.stringify(value),
  status,
});

/**
 * `request_plugin_install` (PL-13): the model suggests one of the listed candidates; arguments and
 * candidate are checked before anyone is asked; an accept is not proof, so the install is verified
 * (digest re-hashed) before success is reported. Null when nothing is installable.
 */
export function requestPluginInstallTool(options: RequestPluginInstallOptions): ToolDefinition | null {
  if (options.candidates.length === 0) return null;
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const byId = new Map(options.candidates.map((c) => [c.id, c]));
  const listing = options.candidates.map((c) => `- ${c.id}${c.description ? `: ${c.description}` : ""}`).join(
    "\n",
  );
  return {
    name: "request_plugin_install",
    hookName: "request_plugin_install",
    hookAliases: [],
    description: "Ask the user to install a plugin that would help with the task. Only these candidates " +
      `can be requested (tool_type "plugin"):\n${listing}\nThe user may decline; new capabilities arrive on a later step.`,
    parameters: {
      type: "object",
      properties: {
        tool_id: {
          type: "string",
          enum: [...byId.keys()],
          description: "candidate id <plugin>@<marketplace>",
        },
        tool_type: { type: "string", enum: ["plugin"] },
        suggest_reason: { type: "string", description: "why this plugin helps, shown to the user" },
      },
      required: ["tool_id", "tool_type", "suggest_reason"],
      additionalProperties: false,
    },
    parallel: false,
    source: { kind: "plugins" },
    approval: () => ({ kind: "none" }),
    parseArguments(raw: unknown): Args {
      const parsed = argsSchema().safeParse(raw);
      if (!parsed.success) {
        throw new TrellisError(
          "tool_arguments",
          parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
          { fields: parsed.error.issues.map((i) => i.path.join(".")) },
        );
      }
      return parsed.data;
    },
    async run(args: unknown): Promise<ToolResult> {
      const { tool_id: pluginId, suggest_reason: reason } = args as Args;
      if (!byId.has(pluginId)) {
        return json({ completed: false, error: `"${pluginId}" is not an installable candidate` }, "error");
      }
      if (!(await options.confirm({ pluginId, reason: reason.trim() }))) {
        if (options.rememberDeclines !== false) await rememberDeclined(options.platform.fs, layout, pluginId);
        return json({ completed: false, declined: true });
      }
      try {
        const result = await installById({
          platform: options.platform,
          loaded: options.loaded,
          layout,
          id: pluginId,
        });
        const check = await verifyPlugin(options.platform.fs, layout, requirePluginId(pluginId));
        if (check.status !== "ok" || check.actual !== result.digest) {
          return json({
            completed: false,
            error: `install of "${pluginId}" could not be verified (${check.status})`,
          }, "error");
        }
        options.onInstalled({ pluginId, version: result.version });
        return json({ completed: true, plugin: pluginId, version: result.version });
      } catch (error) {
        return json({ completed: false, error: describeError(error) }, "error");
      }
    },
  };
}
