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
export { parseManifest } from "./manifest.ts";
export { effectiveManifest } from "./effective_manifest.ts";
export { checkManifestPath } from "./manifest_path.ts";
export { parsePluginId } from "./plugin_id.ts";
export { loadMarketplaces } from "./marketplace_registry.ts";
export type { LoadedMarketplace } from "./marketplace_registry.ts";
export { addMarketplace, removeMarketplace, updateMarketplaces } from "./marketplace_admin.ts";
export type { AddedMarketplace } from "./marketplace_admin.ts";
export { compareVersions, pickActiveVersion, storeLayout } from "./store_layout.ts";
export { activeVersion, installedPluginIds, recoverStore } from "./store.ts";
export { digestTree } from "./content_digest.ts";
export { installPlugin } from "./installer.ts";
export type { InstallResult } from "./installer.ts";
export { verifyPlugin } from "./verify_plugin.ts";
export { uninstallPlugin } from "./uninstall_plugin.ts";
export type { VerifyResult } from "./verify_plugin.ts";
export { installById, requirePluginId, updateById } from "./plugin_operations.ts";
export { removePluginConfig, setPluginEnabled } from "./plugin_config.ts";
export { configuredPlugins, loadPlugins } from "./load_plugins.ts";
export type { LoadedPlugin, PluginComponent, PluginContributions, PluginLoadResult } from "./plugin_types.ts";
export { renderPluginSummaries } from "./render_summaries.ts";
export { PluginCache } from "./plugin_cache.ts";
export type { PluginSetChange } from "./plugin_cache.ts";
export { listInstallCandidates, readDeclined } from "./install_candidates.ts";
export { requestPluginInstallTool } from "./request_install_tool.ts";
export { readClaudeInstalledPlugins } from "./claude_installed.ts";
