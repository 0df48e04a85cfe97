import * as path from "node:path";
import type { FileSystem } from "../platform/mod.ts";
import { UsageError } from "../shared/mod.ts";
import type { Tool } from "./_sdk.ts";
import { type PinnedDefinition, pinnedDefinition, toolFingerprint } from "./tool_fingerprint.ts";

/**
 * Pinned MCP tool definitions (issue #17 item 1, the rug-pull defence).
 *
 * Where: `$TRELLIS_HOME/mcp_pins.json`, never a config layer. Pins are machine-written data (a
 * hash and the whole definition per tool, so `mcp diff` can show what changed), not settings a
 * person edits: keeping them out of config.toml keeps that file readable, needs no TOML editor, and
 * puts them where no project layer can reach. Written under `<file>.lock`, re-read inside the lock,
 * replaced atomically (0600).
 *
 * Keyed by server name, like `mcp trust NAME`: a second server under a known name must present the
 * same definitions or its tools are "changed" — the safe direction.
 */
export type PinState = "pinned" | "new" | "changed" | "unpinned";
export type PinningMode = "block" | "warn" | "off";

export interface PinRecord {
  sha256: string;
  pinned_at: string;
  definition: PinnedDefinition;
}

interface PinFile {
  version: 1;
  servers: Record<string, { tools: Record<string, PinRecord> }>;
}

export const PINS_FILE = "mcp_pins.json";

export class ToolPins {
  #servers: PinFile["servers"];

  private constructor(
    private readonly fs: FileSystem,
    readonly file: string,
    servers: PinFile["servers"],
    /** Why the file could not be read; set → nothing is recorded (the file is never overwritten). */
    readonly error?: string,
  ) {
    this.#servers = servers;
  }

  static async load(fs: FileSystem, home: string): Promise<ToolPins> {
    const file = path.join(home, PINS_FILE);
    const read = await readPinFile(fs, file);
    return "error" in read
      ? new ToolPins(fs, file, {}, read.error)
      : new ToolPins(fs, file, read.file.servers);
  }

  /** True once any tool of this server was pinned. */
  hasServer(server: string): boolean {
    return Object.hasOwn(this.#servers, server);
  }

  pinOf(server: string, tool: string): PinRecord | undefined {
    const tools = this.#servers[server]?.tools;
    return tools && Object.hasOwn(tools, tool) ? tools[tool] : undefined;
  }

  /** `unpinned`: the server was never pinned (first use); `new`: pinned server, unknown tool. */
  stateOf(server: string, tool: Tool): PinState {
    if (!this.hasServer(server)) return "unpinned";
    const pin = this.pinOf(server, tool.name);
    if (!pin) return "new";
    return pin.sha256 === toolFingerprint(tool) ? "pinned" : "changed";
  }

  /**
   * Records pins. `firstUse`: only for a server with no pins on disk (a concurrent session that
   * pinned it first wins, nothing of its record is replaced); otherwise (`mcp trust`) the given
   * tools' pins are replaced. Returns the tools whose pin was written.
   */
  async record(server: string, tools: Tool[], options: { firstUse: boolean }): Promise<string[]> {
    if (this.error) {
      throw new UsageError(`Cannot record MCP tool pins: ${this.error}`, { file: this.file }, "mcp_config");
    }
    await this.fs.mkdir(path.dirname(this.file));
    const lock = await this.fs.lockFile(`${this.file}.lock`);
    try {
      const read = await readPinFile(this.fs, this.file);
      if ("error" in read) {
        throw new UsageError(`Cannot record MCP tool pins: ${read.error}`, { file: this.file }, "mcp_config");
      }
      const servers = read.file.servers;
      const written: string[] = [];
      if (!(options.firstUse && Object.hasOwn(servers, server))) {
        const entry = servers[server] ??= { tools: {} };
        const now = new Date().toISOString();
        for (const tool of tools) {
          entry.tools[tool.name] = {
            sha256: toolFingerprint(tool),
            pinned_at: now,
            definition: pinnedDefinition(tool),
          };
          written.push(tool.name);
        }
        const text = JSON.stringify({ version: 1, servers } satisfies PinFile, null, 1) + "\n";
        await this.fs.writeFileAtomic(this.file, text, { mode: 0o600 });
      }
      this.#servers = servers;
      return written;
    } finally {
      await lock.release();
    }
  }
}

async function readPinFile(fs: FileSystem, file: string): Promise<{ file: PinFile } | { error: string }> {
  let text: string;
  try {
    text = await fs.readTextFile(file);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { file: { version: 1, servers: {} } };
    return { error: `${file}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `${file} is not valid JSON (${(error as Error).message}); move it aside to start over` };
  }
  const servers = (value as { servers?: unknown } | null)?.servers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return { error: `${file} has no "servers" object; move it aside to start over` };
  }
  for (const [name, entry] of Object.entries(servers)) {
    const tools = (entry as { tools?: unknown } | null)?.tools;
    if (typeof tools !== "object" || tools === null || Array.isArray(tools)) {
      return { error: `${file}: servers.${name} has no "tools" object; move it aside to start over` };
    }
    for (const [tool, pin] of Object.entries(tools)) {
      if (typeof (pin as { sha256?: unknown } | null)?.sha256 !== "string") {
        return { error: `${file}: servers.${name}.tools.${tool} has no sha256; move it aside to start over` };
      }
    }
  }
  return { file: { version: 1, servers: servers as PinFile["servers"] } };
}
