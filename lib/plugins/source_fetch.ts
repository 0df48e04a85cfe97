import * as path from "node:path";
import type { Platform } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import { gitCheckout, normalizeGitUrl } from "./git_source.ts";
import type { MarketplaceEntry } from "./marketplace_file.ts";
import { checkManifestPath, containedRealPath } from "./manifest_path.ts";
import type { LoadedMarketplace } from "./marketplace_registry.ts";
import { npmFetch, type NpmLimits } from "./npm_source.ts";

/** A bundle made available on disk for staging; `workDir` (if any) is removed by the caller. */
export interface FetchedSource {
  dir: string;
  workDir?: string;
}

/** Local paths are read in place; git and npm sources land in `workDir` (inside the staging area). */
export async function fetchSource(
  platform: Platform,
  options: {
    marketplace: LoadedMarketplace;
    entry: MarketplaceEntry;
    workDir: string;
    npmLimits?: NpmLimits;
  },
): Promise<FetchedSource> {
  const { marketplace, entry, workDir } = options;
  const source = entry.source;
  const where = { plugin: entry.name, marketplace: marketplace.name };
  switch (source.kind) {
    case "local": {
      const real = await containedRealPath(platform.fs, marketplace.root, source.path);
      if (real === "outside") {
        throw new UsageError(
          `Cannot install "${entry.name}": source ./${source.path} leads outside the marketplace`,
          where,
        );
      }
      if (!real || !(await platform.fs.stat(real))?.isDirectory) {
        throw new UsageError(
          `Cannot install "${entry.name}": source ./${source.path} is not a directory`,
          where,
        );
      }
      return { dir: real };
    }
    case "git": {
      const url = normalizeGitUrl(source.url, marketplace.root);
      if (!url) {
        throw new UsageError(`Cannot install "${entry.name}": unsupported git url "${source.url}"`, where);
      }
      const checkout = path.join(workDir, "git");
      await gitCheckout(platform, { url, dest: checkout, ref: source.ref, sha: source.sha });
      return { dir: await subdir(platform, checkout, source.path, entry.name), workDir };
    }
    case "npm": {
      const spec = source.version ? `${source.package}@${source.version}` : source.package;
      // A path or file: spec has no registry name to check; a plain package name must match.
      const named = !/^(\.|\/|file:)/.test(source.package);
      const root = await npmFetch(platform, {
        spec,
        name: named ? source.package : undefined,
        registry: source.registry,
        workDir,
        limits: options.npmLimits,
      });
      return { dir: root, workDir };
    }
  }
}

async function subdir(
  platform: Platform,
  root: string,
  sub: string | undefined,
  name: string,
): Promise<string> {
  if (!sub) return root;
  const check = checkManifestPath(sub.startsWith("./") ? sub : `./${sub}`);
  if (!check.ok) throw new UsageError(`Cannot install "${name}": git path "${sub}": ${check.reason}`);
  const real = await containedRealPath(platform.fs, root, check.relative);
  if (!real || real === "outside" || !(await platform.fs.stat(real))?.isDirectory) {
    throw new UsageError(`Cannot install "${name}": git path "${sub}" is not a directory in the repository`);
  }
  return real;
}
