import type { Diagnostic } from "../shared/mod.ts";
import type { PluginComponent } from "./plugin_types.ts";

/**
 * The lines an install prints about what a plugin brought: one naming every component Trellis
 * records but does not run (never a refusal), and one when nothing it brought can be used.
 */
export function installReport(id: string, components: PluginComponent[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const unsupported = new Map<string, string[]>();
  for (const c of components.filter((c) => c.status === "unsupported")) {
    unsupported.set(c.kind, [...(unsupported.get(c.kind) ?? []), c.name]);
  }
  const listed = [...unsupported].map(([kind, names]) => `${kind} (${names.join(", ")})`).join("; ");
  const usable = components.some((c) => c.status === "active");
  if (listed) {
    out.push({
      level: "info",
      message: `${id}: recorded but not run by Trellis: ${listed}${
        usable ? "" : "; it contributes nothing else"
      }`,
      subject: id,
    });
  } else if (!usable) {
    out.push({
      level: "info",
      message: `${id}: contributes nothing (no skills, commands, hooks or MCP servers found)`,
      subject: id,
    });
  }
  return out;
}
