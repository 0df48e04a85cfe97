/**
 * The floor of _floor_exec.ts plus the least an exec turn asks of Trellis's mandated libraries
 * (DEVELOPERS.md): commander parses exec's command line, smol-toml reads each `-c` value, zod checks
 * the override and the tool call's arguments. Trellis's time over this floor is its own code.
 */
import { Command } from "commander";
import { parse } from "smol-toml";
import { z } from "zod/mini";
import { floorTurn } from "./_floor_exec.ts";

const program = new Command("floor").version("0.0.0");
program.command("exec")
  .argument("[prompt]", "the prompt")
  .option("--json", "JSONL events")
  .option("--skip-git-repo-check", "accepted as exec accepts it")
  .option("--max-steps <n>", "step limit")
  .option("-c, --config <key=value>", "override", (value: string, all: string[]) => [...all, value], [])
  .action(async (prompt: string, options: { config: string[] }) => {
    const overrides: Record<string, unknown> = {};
    for (const pair of options.config) {
      const at = pair.indexOf("=");
      const text = pair.slice(at + 1);
      let value: unknown = text;
      try {
        value = parse(`v = ${text}`).v;
      } catch {
        // a bare word: the string itself, as in Trellis
      }
      overrides[pair.slice(0, at)] = value;
    }
    const provider = z.strictObject({ base_url: z.string() });
    const baseUrl = provider.parse({ base_url: overrides["model_providers.fixture.base_url"] }).base_url;
    const readFileArgs = z.strictObject({
      path: z.string(),
      offset: z.optional(z.number().check(z.int())),
      limit: z.optional(z.number().check(z.int())),
    });
    await floorTurn(baseUrl, prompt, (json: string) => readFileArgs.parse(JSON.parse(json)));
  });
await program.parseAsync(process.argv.slice(2), { from: "user" });
