import type { Diagnostic } from "../shared/mod.ts";
import type { TrellisPaths } from "./paths.ts";
import type { TrellisConfig } from "./schema/mod.ts";
import type { InvalidMcpServer } from "./validate.ts";

// What loading config yields, apart from the loader: the readers of one layer (the Codex model
// layer, the compat switches) need these shapes without importing the loader that calls them.

export type LayerKind = "default" | "system" | "codex" | "user" | "project" | "profile" | "session";

export interface ConfigLayer {
  kind: LayerKind;
  /** File the layer came from; "-c" for session flags; "built-in" for defaults. */
  source: string;
  /** Validated table of this layer alone. */
  table: TrellisConfig;
  /** For project layers: the `.trellis` folder. */
  dir?: string;
  /** `[mcp_servers.X]` entries of this layer that failed validation (left out of `table`). */
  invalidMcpServers?: InvalidMcpServer[];
}

export interface LoadedConfig {
  /** Merged and validated; unset keys are absent (see BUILT_IN_DEFAULTS for the defaults layer). */
  config: TrellisConfig;
  /** Loaded layers, low → high precedence. */
  layers: ConfigLayer[];
  /** Dotted key path → layer source that set it. */
  provenance: Map<string, string>;
  diagnostics: Diagnostic[];
  paths: TrellisPaths;
  /** True when the user trusted this project (its layers loaded). */
  projectTrusted: boolean;
  /**
   * The project layer files that may load (trusted, and unchanged since `trellis project trust`):
   * absolute path → the text checked. Every loader of a project layer takes its text from here.
   */
  projectLayers: ReadonlyMap<string, string>;
  /** Active profile name, if any. */
  profile?: string;
  /** Every loaded layer's invalid `[mcp_servers.X]` entries: those servers are reported failed. */
  invalidMcpServers: InvalidMcpServer[];
  /**
   * Warnings about what a session will be allowed to do (the workspace holds `$HOME`): a session
   * shows them when it starts; commands that start none (`config show`, `completion`) stay quiet.
   */
  startWarnings?: Diagnostic[];
}
