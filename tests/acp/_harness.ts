import * as acp from "@agentclientprotocol/sdk";
import {
  type FixtureModelServer,
  type FixtureScript,
  startFixtureModelServer,
} from "../../scripts/fixture_model_server.ts";

/**
 * `trellis acp` as an editor sees it (#25 item 1): the real agent process (the sources through
 * Deno, or $TRELLIS_BIN in e2e tests), the real fixture model server, and the ACP SDK's own client.
 */

export interface AcpSetup {
  root: string;
  workspace: string;
  home: string;
  env: Record<string, string>;
  model: FixtureModelServer;
  /** `acp` plus the flags pointing every session at the fixture model. */
  args: (...extra: string[]) => string[];
  close(): Promise<void>;
}

export async function acpSetup(script: string | FixtureScript): Promise<AcpSetup> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "trellis-acp-" }));
  const workspace = `${root}/workspace`;
  const home = `${root}/home/.trellis`;
  for (const dir of [workspace, home, `${root}/tmp`, `${root}/etc`]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.chmod(home, 0o700);
  const model = await startFixtureModelServer({
    script: typeof script === "string"
      ? new URL(`../../fixtures/models/${script}.yaml`, import.meta.url)
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
      "acp",
      "-c",
      "model_provider=fixture",
      "-c",
      `model_providers.fixture.base_url=${JSON.stringify(model.url)}`,
      "-c",
      "model=fixture-model",
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
    args: ["run", "-A", "--quiet", new URL("../../main.ts", import.meta.url).pathname],
  };
}

export interface ClientOptions {
  /** Answers each permission request (default: the first allow_once). */
  permission?: (
    request: acp.RequestPermissionRequest,
  ) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  /** Offers fs/* with these buffers (path → unsaved text); writes are recorded in `written`. */
  fs?: { buffers: Record<string, string> };
  /** Offers terminal/* by running the command itself. */
  terminal?: boolean;
  extra?: string[];
}

export interface Connected {
  agent: acp.ClientContext;
  connection: acp.ClientConnection;
  child: Deno.ChildProcess;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  written: { path: string; content: string }[];
  reads: string[];
  terminals: string[][];
  stderr: () => string;
  initialize(): Promise<acp.InitializeResponse>;
  close(): Promise<void>;
}

/** Spawns `trellis acp` in the workspace and connects the SDK's client to its stdio. */
export function connect(setup: AcpSetup, options: ClientOptions = {}): Connected {
  const { command, args } = trellisCommand();
  const child = new Deno.Command(command, {
    args: [...args, ...setup.args(...(options.extra ?? []))],
    cwd: setup.workspace,
    env: setup.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderrText = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderrText += chunk) }),
  ).catch(() => {});
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const written: { path: string; content: string }[] = [];
  const reads: string[] = [];
  const terminals: string[][] = [];
  const outputs = new Map<string, Promise<{ code: number; output: string }>>();
  let app = acp.client({ name: "trellis-test-editor" })
    .onNotification("session/update", ({ params }) => void updates.push(params))
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      if (options.permission) return await options.permission(params);
      const allow = params.options.find((o) => o.kind === "allow_once")!;
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    });
  if (options.fs) {
    const buffers = options.fs.buffers;
    app = app
      .onRequest("fs/read_text_file", async ({ params }) => {
        reads.push(params.path);
        if (params.path in buffers) return { content: buffers[params.path] };
        return { content: await Deno.readTextFile(params.path) };
      })
      .onRequest("fs/write_text_file", async ({ params }) => {
        written.push({ path: params.path, content: params.content });
        buffers[params.path] = params.content;
        await Deno.writeTextFile(params.path, params.content);
        return {};
      });
  }
  if (options.terminal) {
    let next = 0;
    app = app
      .onRequest("terminal/create", ({ params }) => {
        const id = `term-${++next}`;
        terminals.push([params.command, ...(params.args ?? [])]);
        outputs.set(
          id,
          new Deno.Command(params.command, {
            args: params.args ?? [],
            cwd: params.cwd ?? undefined,
            env: Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value])),
            clearEnv: true,
            stdout: "piped",
            stderr: "piped",
          }).output().then((o) => ({
            code: o.code,
            output: new TextDecoder().decode(o.stdout) + new TextDecoder().decode(o.stderr),
          })),
        );
        return { terminalId: id };
      })
      .onRequest("terminal/wait_for_exit", async ({ params }) => ({
        exitCode: (await outputs.get(params.terminalId)!).code,
      }))
      .onRequest("terminal/output", async ({ params }) => {
        const done = await outputs.get(params.terminalId)!;
        return { output: done.output, truncated: false, exitStatus: { exitCode: done.code } };
      })
      .onRequest("terminal/kill", () => ({}))
      .onRequest("terminal/release", () => ({}));
  }
  const connection = app.connect(acp.ndJsonStream(child.stdin, child.stdout));
  const agent = connection.agent;
  return {
    agent,
    connection,
    child,
    updates,
    permissions,
    written,
    reads,
    terminals,
    stderr: () => stderrText,
    initialize: () =>
      agent.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: Boolean(options.fs), writeTextFile: Boolean(options.fs) },
          terminal: Boolean(options.terminal),
        },
        clientInfo: { name: "trellis-test-editor", version: "1.0.0" },
      }),
    async close() {
      connection.close();
      await child.stdin.close().catch(() => {});
      await child.status;
      await stderrDone;
    },
  };
}

/** The updates of one kind, in order. */
export function updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
  connected: Connected,
  kind: K,
): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
  return connected.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind) as Extract<
    acp.SessionUpdate,
    { sessionUpdate: K }
  >[];
}
