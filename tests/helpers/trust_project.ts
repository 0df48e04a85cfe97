import { hashProjectLayers } from "../../lib/config/mod.ts";
import { platform } from "../../lib/platform/mod.ts";

/**
 * The user-config entry `trellis project trust` writes for `project` now (#20): `trust_level` and
 * the hash of every layer file it holds. Build it after the test has written those files; a layer
 * written later is held back, as it would be for a user.
 */
export function trustEntry(project: string): string {
  const { hashes } = hashProjectLayers(platform.fs, project);
  const table = Object.entries(hashes).map(([file, hash]) =>
    `${JSON.stringify(file)} = ${JSON.stringify(hash)}`
  );
  return `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\nlayer_hashes = { ${
    table.join(", ")
  } }\n`;
}
