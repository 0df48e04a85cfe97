import * as path from "node:path";
import type { LoadedConfig } from "../config/mod.ts";
import type { Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { gitCheckout, looksLikeGitUrl } from "./git_source.ts";
import {
  MARKETPLACE_FILES,
  type MarketplaceSetting,
  marketplaceSettings,
  readMarketplaceAt,
} from "./marketplace_registry.ts";
import { removeMarketplaceSetting, writeMarketplaceSetting } from "./plugin_config.ts";
import { discard, installedPluginIds, recoverStore } from "./store.ts";
import { type StoreLayout, storeLayout } from "./store_layout.ts";

export interface MarketplaceAdminOptions {
  platform: Platform;
  loaded: LoadedConfig;
  layout?: StoreLayout;
}

/** What `marketplace add --replace` switched: the source before, and the plugins that follow the new one. */
export interface MarketplaceReplacement {
  previous: MarketplaceSetting;
  /** Installed `<plugin>@<name>` ids: their next `plugin update` reads the new source. */
  installed: string[];
}

export type AddedMarketplace = MarketplaceSetting & { plugins: number; replaced?: MarketplaceReplacement };

/**
 * `marketplace add PATH|GIT_URL [--ref R] [--replace]`: a local root is recorded by absolute path; a
 * git one is cloned into a staging dir, read, and renamed to `plugins/marketplaces/<name>` only when
 * valid. A name already registered from another source is refused before anything is written (its
 * plugins would silently update from the newcomer, #20 item 9); `replace` switches, and says so.
 */
export async function addMarketplace(
  options: MarketplaceAdminOptions & { source: string; ref?: string; replace?: boolean },
): Promise<AddedMarketplace> {
  const { platform, loaded } = options;
  const layout = options.layout ?? storeLayout(loaded.paths.home);
  const registered = marketplaceSettings(loaded);
  const admit = (candidate: MarketplaceSetting) => admitName(registered, candidate, options.replace === true);
  let added: { setting: MarketplaceSetting; plugins: number };
  if (!looksLikeGitUrl(options.source)) {
    const root = localRoot(path.resolve(loaded.paths.cwd, options.source));
    const read = await readOrUsage(platform, root);
    added = { setting: { name: read.name, kind: "local", source: root }, plugins: read.entries.length };
  } else {
    added = await cloneMarketplace(platform, layout, options.source, options.ref, undefined, admit);
  }
  const previous = admit(added.setting); // a git clone was judged before it replaced anything
  if (previous?.kind === "git" && added.setting.kind === "local") {
    // The old clone would otherwise linger under the name the local root now owns.
    const stale = path.join(layout.marketplacesDir, previous.name);
    if (await platform.fs.lstat(stale)) await discard(platform.fs, layout, stale);
  }
  await writeMarketplaceSetting(platform.fs, loaded.paths.userConfig, added.setting);
  if (!previous) return { ...added.setting, plugins: added.plugins };
  const installed = (await installedPluginIds(platform.fs, layout))
    .filter((id) => id.marketplace === previous.name).map((id) => id.key);
  return { ...added.setting, plugins: added.plugins, replaced: { previous, installed } };
}

/**
 * The registration `candidate` replaces (undefined when its name is new or has the same source):
 * the same kind and source again is idempotent (a new `ref` of the same repository included);
 * another source needs `replace`, otherwise a UsageError naming both.
 */
function admitName(
  registered: MarketplaceSetting[],
  candidate: MarketplaceSetting,
  replace: boolean,
): MarketplaceSetting | undefined {
  const existing = registered.find((s) => s.name === candidate.name);
  if (!existing || (existing.kind === candidate.kind && existing.source === candidate.source)) {
    return undefined;
  }
  if (replace) return existing;
  throw new UsageError(
    `Cannot add marketplace "${candidate.name}" from ${describeSource(candidate)}: ` +
      `that name is already registered from ${describeSource(existing)}; ` +
      `pass --replace to switch it (its installed plugins then update from the new source), ` +
      `or remove it first: trellis plugin marketplace remove ${candidate.name}`,
    { marketplace: candidate.name },
  );
}

function describeSource(setting: MarketplaceSetting): string {
  return `${setting.kind} ${setting.source}${setting.ref ? `@${setting.ref}` : ""}`;
}

async function cloneMarketplace(
  platform: Platform,
  layout: StoreLayout,
  url: string,
  ref?: string,
  expected?: string,
  /** Judges the name the repository gives itself before the clone replaces anything. */
  admit?: (setting: MarketplaceSetting) => unknown,
) {
  await recoverStore(platform.fs, layout);
  await platform.fs.mkdir(layout.stagingDir);
  const work = await platform.fs.makeTempDir("marketplace-", layout.stagingDir);
  try {
    const checkout = path.join(work, "repo");
    await gitCheckout(platform, { url, dest: checkout, ref, keepGitDir: true });
    const read = await readOrUsage(platform, checkout);
    if (expected && read.name !== expected) {
      throw new UsageError(
        `Cannot update marketplace "${expected}": the repository now names itself "${read.name}"`,
      );
    }
    const setting: MarketplaceSetting = {
      name: read.name,
      kind: "git",
      source: url,
      ...(ref ? { ref } : {}),
    };
    admit?.(setting);
    const target = path.join(layout.marketplacesDir, read.name);
    await platform.fs.mkdir(layout.marketplacesDir);
    if (await platform.fs.lstat(target)) await discard(platform.fs, layout, target);
    await platform.fs.rename(checkout, target);
    return { setting, plugins: read.entries.length };
  } finally {
    await platform.fs.remove(work, { recursive: true });
  }
}

/** Re-clones git marketplaces (local ones are read live); returns what each now lists. */
export async function updateMarketplaces(
  options: MarketplaceAdminOptions & { name?: string },
): Promise<{ name: string; plugins: number }[]> {
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const settings = selectSettings(options.loaded, options.name);
  const out: { name: string; plugins: number }[] = [];
  for (const setting of settings) {
    if (setting.kind === "git") {
      const cloned = await cloneMarketplace(
        options.platform,
        layout,
        setting.source,
        setting.ref,
        setting.name,
      );
      out.push({ name: setting.name, plugins: cloned.plugins });
    } else {
      out.push({
        name: setting.name,
        plugins: (await readOrUsage(options.platform, setting.source)).entries.length,
      });
    }
  }
  return out;
}

export async function removeMarketplace(options: MarketplaceAdminOptions & { name: string }): Promise<void> {
  const layout = options.layout ?? storeLayout(options.loaded.paths.home);
  const [setting] = selectSettings(options.loaded, options.name);
  if (setting.kind === "git") {
    const dir = path.join(layout.marketplacesDir, setting.name);
    if (await options.platform.fs.lstat(dir)) await discard(options.platform.fs, layout, dir);
  }
  await removeMarketplaceSetting(options.platform.fs, options.loaded.paths.userConfig, setting.name);
}

function selectSettings(loaded: LoadedConfig, name?: string): MarketplaceSetting[] {
  const all = marketplaceSettings(loaded);
  if (!name) return all;
  const found = all.filter((s) => s.name === name);
  if (!found.length) {
    throw new UsageError(`Cannot find marketplace "${name}": it is not configured`, { marketplace: name });
  }
  return found;
}

function localRoot(resolved: string): string {
  for (const file of MARKETPLACE_FILES) {
    if (resolved.endsWith(`/${file}`)) return resolved.slice(0, -file.length - 1);
  }
  return resolved;
}

async function readOrUsage(platform: Platform, root: string) {
  try {
    return await readMarketplaceAt(platform.fs, root);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message, { file: root });
  }
}
