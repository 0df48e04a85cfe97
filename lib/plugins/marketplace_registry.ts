/** The configured marketplaces: `[marketplaces.<name>]` settings, their roots and loading their files (PL-6). */
import * as path from "node:path";
import { isTable, type LoadedConfig, userControlledLayers } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";
import { type Diagnostic, errorDiagnostic } from "../shared/mod.ts";
import { isWithin } from "./manifest_path.ts";
import { type MarketplaceEntry, parseMarketplace } from "./marketplace_file.ts";
import type { StoreLayout } from "./store_layout.ts";

/** Marketplace file locations under a marketplace root, in the order they are tried (PL-6). */
export const MARKETPLACE_FILES = [
  ".agents/plugins/marketplace.json",
  ".agents/plugins/api_marketplace.json",
  ".claude-plugin/marketplace.json",
] as const;

/** One `[marketplaces.<name>]` table of the user config. */
export interface MarketplaceSetting {
  name: string;
  kind: "local" | "git";
  /** Absolute path (local) or git URL. */
  source: string;
  ref?: string;
}

export interface LoadedMarketplace extends MarketplaceSetting {
  /** The directory holding `.agents/…` or `.claude-plugin/…`. */
  root: string;
  file: string;
  displayName?: string;
  entries: MarketplaceEntry[];
}

/** Marketplaces come only from layers a repository cannot write: a clone cannot add a source. */
export function marketplaceSettings(loaded: LoadedConfig): MarketplaceSetting[] {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const layer of userControlledLayers(loaded)) {
    const table = (layer.table as Record<string, unknown>).marketplaces;
    if (!isTable(table)) continue;
    for (const [name, value] of Object.entries(table)) {
      if (isTable(value)) merged[name] = { ...merged[name], ...value };
    }
  }
  return Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([name, v]) =>
    typeof v.source === "string"
      ? [{
        name,
        kind: v.kind === "git" ? "git" : "local",
        source: v.source,
        ref: v.ref as string | undefined,
      }]
      : []
  );
}

export function marketplaceRoot(layout: StoreLayout, setting: MarketplaceSetting): string {
  return setting.kind === "git" ? path.join(layout.marketplacesDir, setting.name) : setting.source;
}

/** Reads the first marketplace file under `root`; an invalid file is an error, never a guess. */
export async function readMarketplaceAt(
  fs: FileSystem,
  root: string,
): Promise<
  { file: string; name: string; displayName?: string; entries: MarketplaceEntry[]; diagnostics: Diagnostic[] }
> {
  for (const relative of MARKETPLACE_FILES) {
    const file = path.join(root, relative);
    if (!(await fs.stat(file))) continue;
    const real = await fs.realPath(file);
    if (!isWithin(await fs.realPath(root), real)) {
      throw errorOf(`Cannot load marketplace "${file}": it points outside the marketplace root`, file);
    }
    const parsed = parseMarketplace(await fs.readTextFile(real), file);
    if ("error" in parsed) throw errorOf(parsed.error.message, file);
    return { file, ...parsed };
  }
  throw errorOf(`Cannot load marketplace "${root}": no ${MARKETPLACE_FILES.join(" or ")} found`, root);
}

export class MarketplaceLoadError extends Error {
  constructor(message: string, readonly file: string) {
    super(message);
  }
}

function errorOf(message: string, file: string): MarketplaceLoadError {
  return new MarketplaceLoadError(message, file);
}

/** Every configured marketplace; one that fails to load is a diagnostic and is skipped. */
export async function loadMarketplaces(
  fs: FileSystem,
  loaded: LoadedConfig,
  layout: StoreLayout,
): Promise<{ marketplaces: LoadedMarketplace[]; diagnostics: Diagnostic[] }> {
  const marketplaces: LoadedMarketplace[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const setting of marketplaceSettings(loaded)) {
    const root = marketplaceRoot(layout, setting);
    try {
      const read = await readMarketplaceAt(fs, root);
      diagnostics.push(...read.diagnostics);
      marketplaces.push({
        ...setting,
        root,
        file: read.file,
        displayName: read.displayName,
        entries: read.entries,
      });
    } catch (error) {
      const file = error instanceof MarketplaceLoadError ? error.file : root;
      diagnostics.push(errorDiagnostic((error as Error).message, { file, subject: setting.name }));
    }
  }
  return { marketplaces, diagnostics };
}
