import { editConfigFile, removeKey, setKey } from "../config/mod.ts";
import type { FileSystem } from "../platform/mod.ts";

/**
 * The one writer of `[hooks.state."<key>"]` in the user config (issue #16 item 5), the state
 * `readHookState` reads back: a trusted hash (HK-3) with the content hash beside it (#20 item 7) and
 * an `enabled = false`. Every write goes
 * through the locked, checked, atomic config editor; removals prune tables left empty.
 */
export type HookStateChange =
  | { kind: "trust"; key: string; hash: string; contentHash?: string }
  | { kind: "untrust"; key: string }
  | { kind: "enable"; key: string }
  | { kind: "disable"; key: string };

const field = (key: string, name: string) => ["hooks", "state", key, name];

/** Applies the changes to the user config file in one edit; returns the file written. */
export async function writeHookState(
  fs: FileSystem,
  userConfig: string,
  changes: HookStateChange[],
): Promise<string> {
  const { file } = await editConfigFile(fs, userConfig, () =>
    changes.flatMap((c) => {
      switch (c.kind) {
        case "trust":
          return [
            setKey(field(c.key, "trusted_hash"), c.hash),
            c.contentHash !== undefined
              ? setKey(field(c.key, "content_hash"), c.contentHash)
              : removeKey(field(c.key, "content_hash"), { prune: true }),
          ];
        case "untrust":
          return [
            removeKey(field(c.key, "trusted_hash"), { prune: true }),
            removeKey(field(c.key, "content_hash"), { prune: true }),
          ];
        case "enable":
          return removeKey(field(c.key, "enabled"), { prune: true });
        case "disable":
          return setKey(field(c.key, "enabled"), false);
      }
    }));
  return file;
}
