import assert from "node:assert/strict";
import { bearer, connectHttp, newClient, serverSetup, startHttp, trellisCommand } from "./_harness.ts";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/**
 * `trellis mcp-server --http` asks every request for a bearer token (#20 item 3): another local
 * user, or a sandboxed command with the network on, reaches 127.0.0.1 too.
 */

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
});

async function post(url: string, headers: Record<string, string>, body = INITIALIZE) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get("www-authenticate"), text };
}

/** `mcp-server …args` run to its end (a start that is refused). */
async function runToEnd(setup: Awaited<ReturnType<typeof serverSetup>>, ...extra: string[]) {
  const { command, args } = trellisCommand();
  const out = await new Deno.Command(command, {
    args: [...args, ...setup.args(...extra)],
    cwd: setup.workspace,
    env: setup.env,
    clearEnv: true,
    stdin: "null",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("mcp-server --http: 401 without the token or with a wrong one, on every request; the right one runs a turn", async () => {
  const setup = await serverSetup("text_reply");
  const server = await startHttp(setup);
  try {
    // The token: a file of its own under $TRELLIS_HOME/run (0700), 0600, named on stderr.
    assert.ok(server.tokenFile, server.stderr());
    assert.equal(server.tokenFile, `${setup.home}/run/mcp-server-${server.child.pid}.token`);
    assert.match(
      server.stderr(),
      /bearer token written to \S+ \(clients send "Authorization: Bearer <token>"\)/,
    );
    assert.equal((await Deno.stat(server.tokenFile)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(`${setup.home}/run`)).mode! & 0o777, 0o700);
    const token = server.token!;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/); // 32 random bytes

    const none = await post(server.url, {});
    assert.equal(none.status, 401);
    assert.equal(none.challenge, 'Bearer realm="trellis"');
    assert.match(JSON.parse(none.text).error.message, /needs an Authorization: Bearer <token> header/);
    // Wrong in its last character only, in the scheme's place, or a prefix of the right one.
    const near = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const header of [`Bearer ${near}`, `Basic ${token}`, `Bearer ${token.slice(0, 20)}`, "Bearer"]) {
      const wrong = await post(server.url, { authorization: header });
      assert.equal(wrong.status, 401, header);
      assert.equal(wrong.challenge, 'Bearer realm="trellis", error="invalid_token"', header);
    }

    // The right token: a session; a later request of that session without the token is refused
    // too (the session id is no credential).
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: bearer(token) },
    });
    await client.connect(transport);
    const result = await client.callTool({ name: "trellis", arguments: { prompt: "hi" } });
    assert.equal((result.content as { text: string }[])[0].text, "Hello from the fixture model.");
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const sessionHeaders = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" };
    assert.equal((await post(server.url, sessionHeaders, list)).status, 401);
    const listed = await post(server.url, { ...sessionHeaders, ...bearer(token) }, list);
    assert.equal(listed.status, 200, listed.text);
    await client.close();
  } finally {
    const { status } = await server.stop();
    assert.equal(status.code, 0, server.stderr());
    // A token made up for this start goes with it.
    await assert.rejects(Deno.stat(server.tokenFile!), Deno.errors.NotFound);
    await setup.close();
  }
});

Deno.test("mcp-server --http --token-file: an owner-only file's token is used as it is; a missing one is created 0600", async () => {
  const setup = await serverSetup("two_replies");
  try {
    const own = `${setup.root}/own.token`;
    await Deno.writeTextFile(own, "my-own-token-0123456789abcdef\n");
    await Deno.chmod(own, 0o600);
    const server = await connectHttp(setup, { extra: ["--token-file", own] });
    try {
      assert.equal(server.token, "my-own-token-0123456789abcdef");
      assert.match(server.stderr(), new RegExp(`bearer token read from ${own} `));
      // Outside $TRELLIS_HOME/run, sandboxed commands of this user can read it: said once.
      assert.match(
        server.stderr(),
        new RegExp(`^warning: --token-file ${own} lies outside ${setup.home}/run: sandboxed commands`, "m"),
      );
      const result = await server.client.callTool({ name: "trellis", arguments: { prompt: "one" } });
      assert.equal((result.content as { text: string }[])[0].text, "First answer.");
      assert.equal((await post(server.url, bearer("some-other-token-0123456789"))).status, 401);
    } finally {
      await server.stop();
    }
    // The user's file stays as it was.
    assert.equal(await Deno.readTextFile(own), "my-own-token-0123456789abcdef\n");

    const missing = `${setup.root}/new.token`;
    const fresh = await connectHttp(setup, { extra: ["--token-file", missing] });
    try {
      assert.match(fresh.stderr(), new RegExp(`bearer token written to ${missing} `));
      assert.equal((await Deno.stat(missing)).mode! & 0o777, 0o600);
      assert.match(fresh.token!, /^[A-Za-z0-9_-]{43}$/);
      const result = await fresh.client.callTool({ name: "trellis", arguments: { prompt: "two" } });
      assert.equal((result.content as { text: string }[])[0].text, "Second answer.");
    } finally {
      await fresh.stop();
    }
    // Kept, so clients configured with it go on working after a restart.
    assert.equal((await Deno.readTextFile(missing)).trim(), fresh.token);

    // Under $TRELLIS_HOME/run (created 0700 for it): hidden from sandboxes, so no warning.
    const stable = `${setup.home}/run/stable.token`;
    const hidden = await startHttp(setup, ["--token-file", stable]);
    try {
      assert.equal((await Deno.stat(`${setup.home}/run`)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(stable)).mode! & 0o777, 0o600);
      assert.equal(hidden.token?.length, 43);
      assert.doesNotMatch(hidden.stderr(), /warning/);
    } finally {
      await hidden.stop();
    }
    assert.equal((await Deno.readTextFile(stable)).trim(), hidden.token);
  } finally {
    await setup.close();
  }
});

Deno.test("mcp-server --http --token-file: a file others may read or write, an empty one, a directory, a missing directory: named errors, exit 2", async () => {
  const setup = await serverSetup("text_reply");
  try {
    const file = `${setup.root}/shared.token`;
    await Deno.writeTextFile(file, "a-token-others-can-read-0123456789\n");
    for (const [mode, what] of [[0o644, "read"], [0o640, "read"], [0o620, "write"]] as const) {
      await Deno.chmod(file, mode);
      const out = await runToEnd(setup, "--http", "0", "--token-file", file);
      assert.equal(out.code, 2, out.stderr);
      assert.equal(
        out.stderr,
        `error: Cannot use --token-file ${file}: group or others may ${what} it (mode 0${
          mode.toString(8)
        }); only its owner may: chmod 600 ${file}\n`,
      );
    }
    const empty = `${setup.root}/empty.token`;
    await Deno.writeTextFile(empty, "\n");
    await Deno.chmod(empty, 0o600);
    const cases: [string, RegExp][] = [
      [empty, /: it is empty \(delete it to have the server write a fresh token\)\n$/],
      [setup.workspace, /: it is a directory\n$/],
      [`${setup.root}/nowhere/x.token`, /: its directory \S+\/nowhere does not exist\n$/],
    ];
    for (const [path, expected] of cases) {
      const out = await runToEnd(setup, "--http", "0", "--token-file", path);
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, new RegExp(`^error: Cannot use --token-file ${path}${expected.source}`));
    }
    // Nothing else was affected: no token file was written, the shared file is as it was.
    assert.equal(await Deno.readTextFile(file), "a-token-others-can-read-0123456789\n");
    await assert.rejects(Deno.stat(`${setup.home}/run`), Deno.errors.NotFound);
  } finally {
    await setup.close();
  }
});

Deno.test("mcp-server --http --no-auth: serves without a token, and says so on stderr; the auth flags need --http", async () => {
  const setup = await serverSetup("text_reply");
  try {
    const server = await connectHttp(setup, { extra: ["--no-auth"], token: null });
    try {
      assert.equal(server.tokenFile, undefined);
      assert.match(
        server.stderr(),
        /^warning: mcp-server --http --no-auth: no bearer token is asked for; any local user or process/m,
      );
      const result = await server.client.callTool({ name: "trellis", arguments: { prompt: "hi" } });
      assert.equal((result.content as { text: string }[])[0].text, "Hello from the fixture model.");
    } finally {
      await server.stop();
    }
    const stdio = await runToEnd(setup, "--no-auth");
    assert.equal(stdio.code, 2);
    assert.match(stdio.stderr, /^error: Cannot use --no-auth without --http/);
    const both = await runToEnd(setup, "--http", "0", "--no-auth", "--token-file", `${setup.root}/t`);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^error: Cannot use --no-auth with --token-file/);
  } finally {
    await setup.close();
  }
});
