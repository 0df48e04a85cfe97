/**
 * #23 item 3: web_fetch against a loopback HTTP server through `trellis exec` and the real fixture
 * model — HTML to markdown, the size and time caps, the sandbox's network switch, the allow list
 * under on-request, and private addresses refused, after a redirect too.
 */
import assert from "node:assert/strict";
import { execWithCalls, outputText } from "./_everyday_exec.ts";
import { platform } from "../../lib/platform/mod.ts";
import {
  createEverydayTools,
  DEFAULT_EVERYDAY_SETTINGS,
  type PermissionProfile,
  toolEnv,
} from "../../lib/tools/mod.ts";

interface Site {
  url: string;
  close(): Promise<void>;
}

/** A loopback site: `/page` HTML, `/text`, `/big` (200 KB), `/slow` (never ends), redirects. */
function startSite(): Site {
  const abort = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: abort.signal, onListen: () => {} },
    (req) => {
      const url = new URL(req.url);
      switch (url.pathname) {
        case "/page":
          return new Response(
            '<html><head><title>T</title><script>alert(1)</script><style>p{}</style></head><body><h1>Release notes</h1><p>Version <b>2.1</b> adds <a href="/docs">docs</a>.</p><ul><li>one</li><li>two</li></ul></body></html>',
            { headers: { "content-type": "text/html; charset=utf-8" } },
          );
        case "/big":
          return new Response("x".repeat(200_000), { headers: { "content-type": "text/plain" } });
        case "/slow":
          return new Response(
            new ReadableStream({
              start(controller) {
                controller.enqueue(new TextEncoder().encode("<p>start"));
                // Never closed: a URL that never ends.
              },
            }),
            { headers: { "content-type": "text/html" } },
          );
        case "/binary":
          return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), {
            headers: { "content-type": "image/png" },
          });
        case "/to-metadata":
          return new Response(null, {
            status: 302,
            headers: { location: "http://169.254.169.254/latest/meta-data/" },
          });
        case "/to-private":
          return new Response(null, { status: 301, headers: { location: "http://10.0.0.7/admin" } });
        case "/to-other-host":
          return new Response(null, {
            status: 302,
            headers: { location: `http://localhost:${url.port}/page` },
          });
        case "/to-same-host":
          return new Response(null, { status: 302, headers: { location: "/page" } });
        default:
          return new Response("missing", { status: 404 });
      }
    },
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => (abort.abort(), server.finished) };
}

const FULL_ACCESS = ['sandbox_mode="danger-full-access"', 'approval_policy="never"'];
const TEST_OPT_IN = 'tools.web_fetch.allow_private_addresses=["127.0.0.1"]';

async function fetchOnce(url: string, config: string[]) {
  const run = await execWithCalls([[{ name: "web_fetch", arguments: { url } }]], config);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.outputs.length, 1, JSON.stringify(run.requests.at(-1)?.input));
  return { run, text: outputText(run.outputs[0].output) };
}

Deno.test("web_fetch turns an HTML page into markdown through turndown, scripts and styles dropped (#23 item 3)", async () => {
  const site = startSite();
  try {
    const { text } = await fetchOnce(`${site.url}/page`, [...FULL_ACCESS, TEST_OPT_IN]);
    assert.match(text, /^URL: http:\/\/127\.0\.0\.1:\d+\/page\nStatus: 200\n/);
    assert.match(text, /# Release notes/);
    assert.match(text, /Version \*\*2\.1\*\* adds \[docs\]\(\/docs\)\./);
    assert.match(text, /-\s+one\n-\s+two/);
    assert.doesNotMatch(text, /alert|p\{\}/);
  } finally {
    await site.close();
  }
});

Deno.test("web_fetch never reaches a loopback address unless the test opt-in names it", async () => {
  const site = startSite();
  try {
    const refused = await fetchOnce(`${site.url}/page`, FULL_ACCESS);
    assert.match(
      refused.text,
      /web_fetch refused: 127\.0\.0\.1 is a loopback address; web_fetch only reaches public addresses/,
    );
    const named = await fetchOnce(`${site.url}/page`, [...FULL_ACCESS, TEST_OPT_IN]);
    assert.match(named.text, /# Release notes/);
    // The opt-in names addresses: another loopback address stays refused.
    const other = await fetchOnce(`http://[::1]:9/x`, [...FULL_ACCESS, TEST_OPT_IN]);
    assert.match(other.text, /refused: ::1 is a loopback address/);
    // The same address spelled otherwise is still loopback: IPv4-mapped IPv6, a name, 0.0.0.0.
    const mapped = await fetchOnce(`http://[::ffff:127.0.0.1]:9/x`, FULL_ACCESS);
    assert.match(mapped.text, /web_fetch refused: ::ffff:7f00:1 is a loopback address/);
    const named2 = await fetchOnce(`http://localhost:9/x`, FULL_ACCESS);
    assert.match(named2.text, /web_fetch refused: localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
    const unspecified = await fetchOnce(`http://0.0.0.0:9/x`, FULL_ACCESS);
    assert.match(unspecified.text, /web_fetch refused: 0\.0\.0\.0 is a unspecified address/);
  } finally {
    await site.close();
  }
});

Deno.test("web_fetch refuses a redirect to a link-local or private address; a same-host redirect is followed", async () => {
  const site = startSite();
  try {
    const config = [...FULL_ACCESS, TEST_OPT_IN];
    const metadata = await fetchOnce(`${site.url}/to-metadata`, config);
    assert.match(
      metadata.text,
      /refused: redirected to http:\/\/169\.254\.169\.254\/latest\/meta-data\/: 169\.254\.169\.254 is a linkLocal address/,
    );
    const ten = await fetchOnce(`${site.url}/to-private`, config);
    assert.match(ten.text, /redirected to http:\/\/10\.0\.0\.7\/admin: 10\.0\.0\.7 is a private address/);
    const same = await fetchOnce(`${site.url}/to-same-host`, config);
    assert.match(same.text, /URL: http:\/\/127\.0\.0\.1:\d+\/page\n[\s\S]*# Release notes/);
  } finally {
    await site.close();
  }
});

Deno.test("a redirect to another host is followed only when that host needs no asking; else the model is told the URL", async () => {
  const site = startSite();
  try {
    const base = [
      'sandbox_mode="danger-full-access"',
      'approval_policy="on-request"',
      'tools.web_fetch.allow_private_addresses=["127.0.0.1", "::1"]',
    ];
    const told = await fetchOnce(`${site.url}/to-other-host`, [
      ...base,
      'tools.web_fetch.allowed_domains=["127.0.0.1"]',
    ]);
    assert.match(
      told.text,
      /^http:\/\/127\.0\.0\.1:\d+\/to-other-host redirects \(302\) to another host: http:\/\/localhost:\d+\/page\nFetch that URL to follow it\.$/,
    );
    const followed = await fetchOnce(
      `${site.url}/to-other-host`,
      [...base, 'tools.web_fetch.allowed_domains=["127.0.0.1", "localhost"]'],
    );
    assert.match(followed.text, /^URL: http:\/\/localhost:\d+\/page\n[\s\S]*# Release notes/);
  } finally {
    await site.close();
  }
});

Deno.test("web_fetch caps the bytes it reads and the time it waits: a page that never ends fails at the cap, the session goes on", async () => {
  const site = startSite();
  try {
    const config = [
      ...FULL_ACCESS,
      TEST_OPT_IN,
      "tools.web_fetch.max_bytes=1000",
      "tools.web_fetch.timeout_ms=400",
    ];
    const big = await fetchOnce(`${site.url}/big`, config);
    assert.match(big.text, /\nx{1000}\n\n\[only the first 1000 bytes of the page were read\]/);
    const slow = await fetchOnce(`${site.url}/slow`, config);
    assert.match(
      slow.text,
      /refused: http:\/\/127\.0\.0\.1:\d+\/slow did not finish within 400 ms \(the time cap\)/,
    );
    // The turn went on to the model's closing answer.
    assert.equal(slow.run.events.filter((e) => e.type === "turn.completed").length, 1);
    const binary = await fetchOnce(`${site.url}/binary`, config);
    assert.match(binary.text, /is image\/png, not a text page/);
  } finally {
    await site.close();
  }
});

Deno.test("web_fetch is refused when the sandbox has no network; network_access = true lets it run", async () => {
  const site = startSite();
  try {
    const base = ['sandbox_mode="workspace-write"', 'approval_policy="never"', TEST_OPT_IN];
    const off = await fetchOnce(`${site.url}/page`, base);
    assert.match(
      off.text,
      /web_fetch refused: network access is off in the sandbox \(sandbox_workspace_write\.network_access = true/,
    );
    const on = await fetchOnce(`${site.url}/page`, [...base, "sandbox_workspace_write.network_access=true"]);
    assert.match(on.text, /# Release notes/);
  } finally {
    await site.close();
  }
});

Deno.test("under on-request web_fetch asks for a host outside [tools.web_fetch] allowed_domains (exec declines); an allowed one runs", async () => {
  const site = startSite();
  try {
    const base = ['sandbox_mode="danger-full-access"', 'approval_policy="on-request"', TEST_OPT_IN];
    const asked = await fetchOnce(`${site.url}/page`, base);
    const requested = asked.run.events.find((e) => e.type === "approval.requested");
    assert.match(
      requested?.reason ?? "",
      /fetch from 127\.0\.0\.1 \(not in \[tools\.web_fetch\] allowed_domains\)/,
    );
    assert.doesNotMatch(asked.text, /Release notes/);
    const allowed = await fetchOnce(`${site.url}/page`, [
      ...base,
      'tools.web_fetch.allowed_domains=["127.0.0.1"]',
    ]);
    assert.equal(allowed.run.events.some((e) => e.type === "approval.requested"), false);
    assert.match(allowed.text, /# Release notes/);
  } finally {
    await site.close();
  }
});

Deno.test("WebFetch (Claude Code's face) takes {url, prompt}: the page comes back under the prompt; a bad URL is refused by name", async () => {
  const site = startSite();
  try {
    const profile = {
      sandboxMode: "danger-full-access",
      approvalPolicy: "never",
      networkAccess: false,
    } as PermissionProfile;
    const env = toolEnv({
      platform,
      profile,
      sandbox: { available: false, reason: "test" },
      everyday: { webFetch: { ...DEFAULT_EVERYDAY_SETTINGS.webFetch, allowPrivateAddresses: ["127.0.0.1"] } },
    });
    const tool = createEverydayTools(env, "claude").find((t) => t.name === "WebFetch")!;
    assert.equal(tool.hookName, "WebFetch");
    const args = tool.parseArguments({ url: `${site.url}/page`, prompt: "Which version?" });
    assert.deepEqual(tool.approval(args, { cwd: "/" }), { kind: "none" });
    const ctx = {
      callId: "c1",
      cwd: "/",
      signal: new AbortController().signal,
      emit: () => {},
      escalated: false,
    };
    const result = await tool.run(args, ctx);
    assert.equal(result.status, "success");
    assert.match(result.output, /Status: 200\nPrompt: Which version\?\n\n[\s\S]*# Release notes/);
    assert.throws(
      () => tool.parseArguments({ url: "file:///etc/passwd", prompt: "x" }),
      /url: must be an absolute http:\/\/ or https:\/\/ URL/,
    );
    assert.throws(() => tool.parseArguments({ url: `${site.url}/page` }), /prompt/);
  } finally {
    await site.close();
  }
});
