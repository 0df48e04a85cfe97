import { Buffer } from "node:buffer";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import {
  type FixtureModelServer,
  type FixtureScript,
  startFixtureModelServer,
} from "../../../scripts/fixture_model_server.ts";

/**
 * `trellis mcp-server` as a client sees it: the real server process (the sources through Deno, or
 * $TRELLIS_BIN in e2e tests), the real fixture model server, and the SDK's own client classes.
 */

export interface ServerSetup {
  root: string;
  workspace: string;
  home: string;
  env: Record<string, string>;
  model: FixtureModelServer;
  /** `mcp-server` plus the flags pointing every thread at the fixture model. */
  args: (...extra: string[]) => string[];
  close(): Promise<void>;
}

/**
 * A temp HOME/TRELLIS_HOME/workspace and the fixture model playing `script` (a fixtures/models name, or
 * steps). `pinModel: false` leaves out `-c model=…` (a key the operator sets with -c is a cap calls
 * cannot change).
 */
export async function serverSetup(
  script: string | FixtureScript,
  options: { pinModel?: boolean } = {},
): Promise<ServerSetup> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-mcp-server-" }));
  const workspace = `${root}/workspace`;
  const home = `${root}/home/.trellis`;
  for (const dir of [workspace, home, `${root}/tmp`, `${root}/etc`]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  // As Trellis makes it (#20 item 13): a 0755 one would be tightened, with a warning on stderr.
  await Deno.chmod(home, 0o700);
  const model = await startFixtureModelServer({
    script: typeof script === "string"
      ? new URL(`../../../fixtures/models/${script}.yaml`, import.meta.url)
      : script,
  });
  return {
    root,
    workspace,
    home,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: `${root}/home`,
      TRELLIS_HOME: home,
      TRELLIS_SYSTEM_DIR: `${root}/etc`,
      TMPDIR: `${root}/tmp`,
    },
    model,
    args: (...extra) => [
      "mcp-server",
      "-c",
      "model_provider=fixture",
      "-c",
      `model_providers.fixture.base_url=${JSON.stringify(model.url)}`,
      ...(options.pinModel === false ? [] : ["-c", "model=fixture-model"]),
      "-c",
      "skills.bundled.enabled=false",
      ...extra,
    ],
    async close() {
      await model.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** The binary under test: $TRELLIS_BIN, else the sources through Deno. */
export function trellisCommand(): { command: string; args: string[] } {
  const bin = Deno.env.get("TRELLIS_BIN");
  if (bin) return { command: bin, args: [] };
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", new URL("../../../main.ts", import.meta.url).pathname],
  };
}

export type Elicit = (params: Record<string, unknown>) => ElicitResult | Promise<ElicitResult>;

/** An SDK client; with `elicit`, it declares form elicitation and answers with it. */
export function newClient(elicit?: Elicit): Client {
  const client = new Client(
    { name: "trellis-test-client", version: "1.0.0" },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) {
    client.setRequestHandler(
      ElicitRequestSchema,
      (request) => elicit(request.params as Record<string, unknown>),
    );
  }
  return client;
}

/** A client over the SDK's StdioClientTransport, spawning the server in the workspace. */
export async function connectStdio(setup: ServerSetup, options: { elicit?: Elicit; extra?: string[] } = {}) {
  const { command, args } = trellisCommand();
  const transport = new StdioClientTransport({
    command,
    args: [...args, ...setup.args(...(options.extra ?? []))],
    cwd: setup.workspace,
    env: setup.env,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr as unknown as AsyncIterable<Uint8Array> | null);
  const client = newClient(options.elicit);
  await client.connect(transport);
  return { client, transport, stderr };
}

function collect(stream: AsyncIterable<Uint8Array> | null): () => string {
  let text = "";
  if (stream) {
    void (async () => {
      for await (const chunk of stream) text += new TextDecoder().decode(chunk);
    })().catch(() => {});
  }
  return () => text;
}

/**
 * The server as a child whose exit status the test sees (the SDK's stdio transport hides it),
 * framed with the SDK's own ReadBuffer/serializeMessage. `endInput()` is a client going away.
 */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly child: Deno.ChildProcess;
  readonly stderr: Promise<string>;
  #writer: WritableStreamDefaultWriter<Uint8Array>;

  /** `readDelayMs`: wait before each read, so frames pile up in the pipe and arrive together (a slow client). */
  constructor(setup: ServerSetup, extra: string[] = [], private readonly readDelayMs = 0) {
    const { command, args } = trellisCommand();
    this.child = new Deno.Command(command, {
      args: [...args, ...setup.args(...extra)],
      cwd: setup.workspace,
      env: setup.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.stderr = new Response(this.child.stderr).text();
  }

  start(): Promise<void> {
    const buffer = new ReadBuffer();
    void (async () => {
      const reader = this.child.stdout.getReader();
      while (true) {
        if (this.readDelayMs) await new Promise((r) => setTimeout(r, this.readDelayMs));
        const { done, value: chunk } = await reader.read();
        if (done) break;
        buffer.append(Buffer.from(chunk));
        for (let message = buffer.readMessage(); message; message = buffer.readMessage()) {
          this.onmessage?.(message);
        }
      }
      this.onclose?.();
    })().catch((error) => this.onerror?.(error));
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Closes the server's stdin: the client is gone. */
  async endInput(): Promise<void> {
    await this.#writer.close().catch(() => {});
  }

  async close(): Promise<void> {
    await this.endInput();
  }
}

/** `mcp-server --http 0 …extra` started, once it says where it listens (and where its token is). */
export async function startHttp(setup: ServerSetup, extra: string[] = []) {
  const { command, args } = trellisCommand();
  const child = new Deno.Command(command, {
    args: [...args, ...setup.args("--http", "0", ...extra)],
    cwd: setup.workspace,
    env: setup.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let url: string | undefined;
  while (!url) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`mcp-server --http exited before listening:\n${stderr}`);
    stderr += value;
    url = /listening on (\S+)/.exec(stderr)?.[1];
  }
  void (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) stderr += r.value;
  })().catch(() => {});
  const tokenFile = /bearer token (?:written to|read from) (\S+)/.exec(stderr)?.[1];
  return {
    url,
    child,
    tokenFile,
    /** The token the server asks for (read from the file it named), or null without one. */
    token: tokenFile ? (await Deno.readTextFile(tokenFile)).trim() : null,
    stderr: () => stderr,
    /** SIGTERM, then the exit status and what it printed on stdout (nothing, for HTTP). */
    async stop() {
      child.kill("SIGTERM");
      const status = await child.status;
      return { status, stdout: await stdout };
    },
  };
}

/** The headers a client of a server with `token` sends. */
export function bearer(token: string | null): Record<string, string> {
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

/**
 * Starts `mcp-server --http 0` and connects over Streamable HTTP with the token the server wrote
 * (or `token`, when given: null sends none).
 */
export async function connectHttp(
  setup: ServerSetup,
  options: { elicit?: Elicit; extra?: string[]; token?: string | null } = {},
) {
  const server = await startHttp(setup, options.extra);
  const token = options.token !== undefined ? options.token : server.token;
  const client = newClient(options.elicit);
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: bearer(token) },
  });
  await client.connect(transport);
  return {
    ...server,
    client,
    transport,
    headers: bearer(token),
    async stop() {
      await client.close().catch(() => {});
      return await server.stop();
    },
  };
}

/** The transcript of a thread, one parsed object per line. */
export async function transcript(setup: ServerSetup, threadId: string): Promise<Record<string, any>[]> {
  const text = await Deno.readTextFile(`${setup.home}/sessions/${threadId}.jsonl`);
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type Notification = { method: string; params?: Record<string, any> };

/** Every notification the client gets that has no handler of its own (trellis/event, …). */
export function recordNotifications(client: Client): Notification[] {
  const seen: Notification[] = [];
  client.fallbackNotificationHandler = (n) => {
    seen.push(n as Notification);
    return Promise.resolve();
  };
  return seen;
}

/** The `trellis/event` notifications' params: exec --json's events plus `_meta`. */
export function trellisEvents(notifications: Notification[]): Record<string, any>[] {
  return notifications.filter((n) => n.method === "trellis/event").map((n) => n.params!);
}
