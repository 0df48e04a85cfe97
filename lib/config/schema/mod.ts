import { z } from "zod";
import { coreShape } from "./core.ts";
import { hooksShape } from "./hooks.ts";
import { mcpShape } from "./mcp_servers.ts";
import { pluginsShape } from "./plugins.ts";
import { skillsShape } from "./skills.ts";

/**
 * One config layer (or the merged result). Every key is optional here; defaults live in
 * `defaults.ts` so a layer's errors name only what that file wrote.
 */
// Zod compiles a fast path per object schema with `new Function` on first parse; a CLI run parses
// each schema a few times, so compiling costs more than it saves (exec -3 ms).
z.config({ jitless: true });

export const configSchema = z.strictObject({
  ...coreShape,
  ...mcpShape,
  ...skillsShape,
  ...hooksShape,
  ...pluginsShape,
});

export type TrellisConfig = z.infer<typeof configSchema>;
