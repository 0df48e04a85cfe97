/**
 * Plugins: manifests (Codex `.codex-plugin/`, Claude Code `.claude-plugin/`, a marketplace entry, or
 * none: Claude Code's default layout), marketplaces (local, git, npm), a content-checked store with
 * atomic publish and install records kept outside it, and the load that projects active plugins into
 * contributions for the skills, MCP and hooks subsystems (this folder never calls them).
 *
 * @example
 * ```ts
 * import { loadConfig } from "../config/mod.ts";
 * import { platform } from "../platform/mod.ts";
 * import { PluginCache, renderPluginSummaries } from "./mod.ts";
 * const loaded = await loadConfig(platform.fs, { cwd: platform.cwd(), env: platform.env });
 * const cache = new PluginCache({ platform });
 * const { contributions } = await cache.get(loaded);
 * console.log(renderPluginSummaries(contributions.summaries));
 * ```
 * @module
 */
export { defaultManifest, parseManifest, parseManifestValue, UNSUPPORTED_COMPONENTS } from "./manifest.ts";
export type { HookDeclaration, ManifestParse, McpDeclaration, PluginManifest } from "./manifest.ts";
export { effectiveManifest } from "./effective_manifest.ts";
export type { EntryManifest } from "./effective_manifest.ts";
export type { PluginInterface } from "./display_metadata.ts";
export { loadManifest, MANIFEST_LOCATIONS } from "./load_manifest.ts";
export type { LoadedManifest } from "./load_manifest.ts";
export { checkManifestPath } from "./manifest_path.ts";
export { invalidPluginKeyMessage, isValidVersionSegment, parsePluginId } from "./plugin_id.ts";
export type { PluginId } from "./plugin_id.ts";
export { parseMarketplace } from "./marketplace_file.ts";
export type { MarketplaceEntry, PluginSource } from "./marketplace_file.ts";
export { loadMarketplaces, MARKETPLACE_FILES, marketplaceSettings } from "./marketplace_registry.ts";
export type { LoadedMarketplace, MarketplaceSetting } from "./marketplace_registry.ts";
export { addMarketplace, removeMarketplace, updateMarketplaces } from "./marketplace_admin.ts";
export type { AddedMarketplace, MarketplaceReplacement } from "./marketplace_admin.ts";
export { DEFAULT_NPM_LIMITS } from "./npm_source.ts";
export type { NpmLimits } from "./npm_source.ts";
export {
  compareVersions,
  installRecordFile,
  legacyPluginDataDir,
  pickActiveVersion,
  pluginDataDir,
  storeLayout,
} from "./store_layout.ts";
export { resolveDataDir } from "./data_dir.ts";
export type { StoreLayout } from "./store_layout.ts";
export { activeVersion, installedPluginIds, recoverStore } from "./store.ts";
export { digestTree } from "./content_digest.ts";
export { installPlugin } from "./installer.ts";
export { formatBytes } from "./copy_tree.ts";
export type { InstallResult } from "./installer.ts";
export { readInstallRecord } from "./install_record.ts";
export type { InstallRecord } from "./install_record.ts";
export { verifyPlugin } from "./verify_plugin.ts";
export { uninstallPlugin } from "./uninstall_plugin.ts";
export type { VerifyResult, VerifyStatus } from "./verify_plugin.ts";
export { installById, requirePluginId, updateById } from "./plugin_operations.ts";
export type { PluginOpOptions } from "./plugin_operations.ts";
export { removePluginConfig, setPluginEnabled } from "./plugin_config.ts";
export { configuredPlugins, loadPlugins } from "./load_plugins.ts";
export type {
  AgentContribution,
  CapabilitySummary,
  CommandRootContribution,
  ComponentStatus,
  HookSourceContribution,
  LoadedPlugin,
  McpServerContribution,
  PluginComponent,
  PluginContributions,
  PluginLoadResult,
  SkillRootContribution,
} from "./plugin_types.ts";
export { renderPluginSummaries } from "./render_summaries.ts";
export { PluginCache } from "./plugin_cache.ts";
export type { PluginChangeListener, PluginSetChange } from "./plugin_cache.ts";
export { listInstallCandidates, readDeclined } from "./install_candidates.ts";
export type { InstallCandidate } from "./install_candidates.ts";
export { requestPluginInstallTool } from "./request_install_tool.ts";
export type { RequestPluginInstallOptions } from "./request_install_tool.ts";
export { readClaudeInstalledPlugins } from "./claude_installed.ts";
export type { ClaudeInstalledPlugin } from "./claude_installed.ts";
