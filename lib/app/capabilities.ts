import { type LoadedConfig, loadProjectInstructions, type ProjectInstructions } from "../config/mod.ts";
import type { StepToolCatalog } from "../loop/mod.ts";
import {
  listInstallCandidates,
  type PluginCache,
  type PluginLoadResult,
  renderPluginSummaries,
  requestPluginInstallTool,
} from "../plugins/mod.ts";
import { type ServerInstructions, serverInstructionsSection } from "../mcp/mod.ts";
import type { Platform } from "../platform/mod.ts";
import type { EventSink, ToolDefinition } from "../shared/mod.ts";
import { createSkillsService, type SkillsInput, type SkillsService } from "../skills/mod.ts";
import { skillsInputFor } from "./skills_input.ts";
import type { WorkspaceLoads } from "./workspace_loads.ts";
import { reportDiagnostics } from "./diagnostics.ts";
import { withFreshPluginSettings } from "./plugin_settings.ts";
import type { McpHolder } from "./mcp_wiring.ts";

type SkillsSnapshot = Awaited<ReturnType<SkillsService["snapshot"]>>;

/**
 * The thread's capability owners — plugins, skills, MCP — and the coordination between them:
 * a change of the effective plugin set clears the skills cache and refreshes MCP, visible from the
 * next step only (PL-11, SPEC §6). No global lock: each owner keeps its own cache or runtime.
 */
export class Capabilities {
  readonly skills: SkillsService;
  private pluginsDirty = false;
  /** This session's own reload is running: the change it hears is the one it is applying. */
  private reloading = false;
  private skillsInput: SkillsInput;
  private instructions: Promise<ProjectInstructions> | null = null;
  private instructionsUsed = false;
  /** The last snapshot handed out, and the one held while ConfigChange hooks judge an edit (#24). */
  private lastSkills: SkillsSnapshot | null = null;
  private heldSkills: SkillsSnapshot | null = null;

  private constructor(
    private readonly options: { platform: Platform; loaded: LoadedConfig; events: EventSink },
    readonly plugins: PluginCache,
    public pluginLoad: PluginLoadResult,
    readonly mcp: McpHolder,
    private installTool: ToolDefinition | null,
  ) {
    this.skills = createSkillsService({ platform: options.platform, events: options.events });
    this.skillsInput = skillsInputFor(options.platform.fs, options.loaded, pluginLoad.contributions);
    // The cache is the workspace's, shared by its sessions (#26 item 2): a plugin one session
    // installed shows in every other from its next step too (PL-11).
    this.stopListening = plugins.onChange((change) => {
      this.heldSkills = null;
      this.skills.clearCache();
      if (!this.reloading) this.pluginsDirty = true;
      options.events({ type: "plugin.changed", plugins: change.current });
    });
  }

  private readonly stopListening: () => void;

  /** Stops hearing of plugin changes (the session closed; the workspace's cache outlives it). */
  close(): void {
    this.stopListening();
  }

  /** The session's capabilities from the workspace's loads (the plugins already read are reused). */
  static async load(
    options: {
      platform: Platform;
      loaded: LoadedConfig;
      events: EventSink;
      mcp: McpHolder;
      loads: WorkspaceLoads;
    },
  ): Promise<Capabilities> {
    const plugins = options.loads.pluginCache;
    const pluginLoad = await options.loads.plugins();
    reportDiagnostics(options.events, pluginLoad.diagnostics);
    const capabilities = new Capabilities(options, plugins, pluginLoad, options.mcp, null);
    await capabilities.mcp.apply(pluginLoad.contributions.mcpServers, { initial: true });
    return capabilities;
  }

  /** Skills snapshot for a turn: the turn keeps it even if the cache is cleared meanwhile (SK-15). */
  async skillsSnapshot(): Promise<{ snapshot: SkillsSnapshot; input: SkillsInput }> {
    const snapshot = this.heldSkills ?? await this.skills.snapshot(this.skillsInput);
    this.lastSkills = snapshot;
    return { snapshot, input: this.skillsInput };
  }

  /**
   * Starts the native watcher on the skill roots; returns its stop function. `judge` (ConfigChange
   * hooks, #24 item 1) sees each change first: until it answers, and for good when it blocks, turns
   * keep the skills as they were before the edit.
   */
  watchSkills(judge?: (paths: string[]) => Promise<boolean>): () => void {
    let handle: { close(): void } | undefined;
    let stopped = false;
    void this.skills.snapshot(this.skillsInput).then((snapshot) => {
      if (stopped) return;
      handle = this.skills.watch(snapshot, {
        throttleMs: this.skillsInput.watchThrottleMs,
        onChange: (paths) => {
          if (!judge) return;
          const prior = this.lastSkills;
          this.heldSkills = prior;
          void judge(paths).then((blocked) => {
            if (!blocked && this.heldSkills === prior) this.heldSkills = null;
          }, () => {
            if (this.heldSkills === prior) this.heldSkills = null;
          });
        },
      });
    });
    return () => {
      stopped = true;
      handle?.close();
    };
  }

  /**
   * AGENTS.md and CLAUDE.md instructions, read once per session as Codex does (an edit shows in the
   * next session). Read whether or not the project is trusted: they are instructions, not code.
   */
  projectInstructions(): Promise<ProjectInstructions> {
    this.instructions ??= loadProjectInstructions(this.options.platform.fs, this.options.loaded);
    return this.instructions;
  }

  /** True the first time it is asked: the instructions' warnings are reported once per session. */
  firstInstructionsUse(): boolean {
    const first = !this.instructionsUsed;
    this.instructionsUsed = true;
    return first;
  }

  pluginSummaries(): string | null {
    return renderPluginSummaries(this.pluginLoad.contributions.summaries);
  }

  /** Offers `request_plugin_install` when a marketplace lists candidates (PL-13). */
  async prepareInstallTool(confirm: (request: { pluginId: string; reason: string }) => Promise<boolean>) {
    const { platform, loaded } = this.options;
    const candidates = await listInstallCandidates({ platform, loaded }).catch(() => []);
    this.installTool = requestPluginInstallTool({
      platform,
      loaded,
      candidates,
      confirm,
      onInstalled: () => {
        this.plugins.invalidate();
        this.pluginsDirty = true;
      },
    });
  }

  /** One step's tools; applies a pending plugin change first, so it shows from this step on. */
  async captureStep(
    builtins: ToolDefinition[],
  ): Promise<StepToolCatalog & { mcpInstructions: ServerInstructions[] }> {
    if (this.pluginsDirty) await this.reloadPlugins();
    const mcpStep = await this.mcp.captureStep();
    const instructions = serverInstructionsSection(mcpStep?.instructions ?? []);
    return {
      tools: [...builtins, ...(mcpStep?.tools ?? []), ...(this.installTool ? [this.installTool] : [])],
      ...(instructions ? { instructions } : {}),
      mcpInstructions: mcpStep?.instructions ?? [],
      release: () => mcpStep?.release(),
    };
  }

  private async reloadPlugins(): Promise<void> {
    this.pluginsDirty = false;
    this.reloading = true;
    const { events, platform } = this.options;
    const loaded = withFreshPluginSettings(platform.fs, this.options.loaded);
    try {
      this.pluginLoad = await this.plugins.get(loaded);
    } finally {
      this.reloading = false;
    }
    reportDiagnostics(events, this.pluginLoad.diagnostics);
    this.skillsInput = skillsInputFor(this.options.platform.fs, loaded, this.pluginLoad.contributions);
    await this.mcp.apply(this.pluginLoad.contributions.mcpServers, { initial: false });
  }
}
