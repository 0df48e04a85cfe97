import {
  activeVersion,
  type AddedMarketplace,
  addMarketplace,
  configuredPlugins,
  installById,
  installedPluginIds,
  type InstallResult,
  type LoadedMarketplace,
  type LoadedPlugin,
  loadMarketplaces,
  removeMarketplace,
  removePluginConfig,
  requirePluginId,
  setPluginEnabled,
  storeLayout,
  uninstallPlugin,
  updateById,
  updateMarketplaces,
  verifyPlugin,
  type VerifyResult,
} from "../plugins/mod.ts";
import type { Diagnostic } from "../shared/mod.ts";
import type { Workspace } from "./workspace.ts";

/**
 * `trellis plugin …` as operations on a workspace: the plugin store under `$TRELLIS_HOME/plugins`,
 * the `[plugins]` and `[marketplaces]` tables of the user config, and the two kept in step (an
 * uninstall also removes the plugin's config entry). The CLI parses and prints; this wires.
 */
export class PluginAdmin {
  constructor(private readonly ws: Workspace) {}

  private get layout() {
    return storeLayout(this.ws.loaded.paths.home);
  }

  install(id: string): Promise<InstallResult> {
    return installById({ platform: this.ws.platform, loaded: this.ws.loaded, id });
  }

  /** Removes the plugin's files (its data dir only with `purge`) and its `[plugins."<id>"]` entry. */
  async uninstall(
    id: string,
    options: { purge?: boolean } = {},
  ): Promise<{ id: string; removed: boolean; purged: boolean; diagnostics: Diagnostic[] }> {
    const { platform, loaded } = this.ws;
    const pid = requirePluginId(id);
    const done = await uninstallPlugin(platform.fs, this.layout, pid, {
      purge: options.purge,
      knownIds: configuredPlugins(loaded).map((p) => p.key),
    });
    await removePluginConfig(platform.fs, loaded.paths.userConfig, pid.key);
    return { id: pid.key, ...done };
  }

  /** Every installed plugin's id, or the one given. */
  async installedIds(id?: string): Promise<string[]> {
    if (id) return [requirePluginId(id).key];
    return (await installedPluginIds(this.ws.platform.fs, this.layout)).map((p) => p.key);
  }

  update(id: string): Promise<InstallResult> {
    return updateById({ platform: this.ws.platform, loaded: this.ws.loaded, id });
  }

  verify(id: string): Promise<VerifyResult> {
    return verifyPlugin(this.ws.platform.fs, this.layout, requirePluginId(id));
  }

  /** Writes `[plugins."<id>"] enabled` in the user config; returns the canonical id. */
  async setEnabled(id: string, enabled: boolean): Promise<string> {
    const pid = requirePluginId(id);
    await setPluginEnabled(this.ws.platform.fs, this.ws.loaded.paths.userConfig, pid.key, enabled);
    return pid.key;
  }

  /**
   * Loaded (configured) plugins plus installed-but-unconfigured ones, which are not active, sorted
   * by id; with the plugin loader's diagnostics.
   */
  async rows(): Promise<{ rows: LoadedPlugin[]; diagnostics: Diagnostic[] }> {
    const { platform, loaded } = this.ws;
    const result = await this.ws.plugins();
    const configured = new Set(configuredPlugins(loaded).map((p) => p.key));
    const rows = [...result.plugins];
    for (const id of await installedPluginIds(platform.fs, this.layout)) {
      if (configured.has(id.key)) continue;
      const active = await activeVersion(platform.fs, this.layout, id);
      rows.push({
        id: id.key,
        version: active?.version ?? null,
        root: active?.root ?? null,
        dataDir: null,
        enabled: false,
        active: false,
        error: "not enabled in config",
      });
    }
    rows.sort((a, b) => (a.id < b.id ? -1 : 1));
    return { rows, diagnostics: result.diagnostics };
  }

  /** The canonical `<plugin>@<marketplace>` key of an id (a UsageError when malformed). */
  canonicalId(id: string): string {
    return requirePluginId(id).key;
  }

  addMarketplace(
    source: string,
    options: { ref?: string; replace?: boolean } = {},
  ): Promise<AddedMarketplace> {
    return addMarketplace({ platform: this.ws.platform, loaded: this.ws.loaded, source, ...options });
  }

  marketplaces(): Promise<{ marketplaces: LoadedMarketplace[]; diagnostics: Diagnostic[] }> {
    return loadMarketplaces(this.ws.platform.fs, this.ws.loaded, this.layout);
  }

  updateMarketplaces(name?: string): Promise<{ name: string; plugins: number }[]> {
    return updateMarketplaces({ platform: this.ws.platform, loaded: this.ws.loaded, name });
  }

  removeMarketplace(name: string): Promise<void> {
    return removeMarketplace({ platform: this.ws.platform, loaded: this.ws.loaded, name });
  }
}
