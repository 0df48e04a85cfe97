import type { Command } from "commander";
import {
  doctorWorkspaceHooks,
  type HookHandlerInfo,
  hookReviewNotice,
  type HookRunRecord,
  type HookStateChange,
  testHooks,
  type Workspace,
} from "../../app/mod.ts";
import { UsageError } from "../../shared/mod.ts";
import { type CliContext, type CommonOptions, printDiagnostics, withCommonOptions } from "../context.ts";

/** `trellis hooks list|trust|untrust|enable|disable|test|doctor`. */
export function registerHooksCommand(program: Command, ctx: CliContext): void {
  const hooks = program.command("hooks").description("list, trust, test and diagnose lifecycle hooks");
  const load = async (options: CommonOptions, quiet = false) => {
    const ws = await ctx.workspace({ ...options, quietDiagnostics: quiet });
    const result = await ws.hooks();
    if (!quiet) printDiagnostics(ctx, result.diagnostics);
    return { ws, loaded: ws.loaded, ...result };
  };

  withCommonOptions(hooks.command("list").description("list every hook with its trust status"))
    .option("--json", "print JSON")
    .action(async (options) => {
      const { handlers, needsReview } = await load(options);
      if (options.json) {
        await ctx.out(JSON.stringify({ hooks: handlers.map(listEntry), needsReview }, null, 2) + "\n");
        return;
      }
      if (handlers.length === 0) return void await ctx.out("No hooks configured.\n");
      // Each entry is numbered: `hooks trust 2` takes the number for the long key (#21 item 11).
      const width = String(handlers.length).length;
      const lines = handlers.map((h, i) =>
        `${String(i + 1).padStart(width)}. ${h.trust.padEnd(9)} ${h.enabled ? "on " : "off"} ${h.key}${
          h.trustReason ? ` (${h.trustReason})` : ""
        }\n    ${h.event}${h.vendorEvent ? ` (${h.vendorEvent})` : ""}${h.matcher ? ` [${h.matcher}]` : ""}${
          h.ifRule ? ` if ${h.ifRule}` : ""
        }${h.rewake ? " (asyncRewake)" : h.async ? " (async)" : ""}: ` +
        `${h.type && h.type !== "command" ? `${h.type} ` : ""}${h.command}${
          h.args ? ` ${JSON.stringify(h.args)}` : ""
        }${h.once ? " (once)" : ""}${
          h.plugin ? ` (plugin ${h.plugin.pluginId})` : ""
        }\n    ${h.hash}\n    from ${h.origin ?? "trellis"}: ${h.sourcePath}${
          h.contentHash ? `\n    content ${h.contentHash}` : ""
        }`
      );
      const notice = hookReviewNotice(needsReview);
      await ctx.out(
        lines.join("\n") + "\n" + (notice ? `\n${notice} (then: trellis hooks trust N|KEY|--all)\n` : ""),
      );
    });

  withCommonOptions(
    hooks.command("trust").description("trust a hook's current content (writes its hash to user config)"),
  )
    .argument("[key]", "hook key, or its number, from `trellis hooks list`")
    .option("--all", "trust every untrusted or modified hook")
    .action(async (key: string | undefined, options) => {
      const { ws, handlers } = await load(options, true);
      if (!key && !options.all) throw new UsageError("Cannot trust hooks: give a KEY or --all");
      const targets = options.all
        ? handlers.filter((h) => h.trust === "untrusted" || h.trust === "modified")
        : [findHook(handlers, key!, "trust")];
      const managed = targets.filter((h) => h.managed);
      if (managed.length > 0) return void await ctx.out(`${managed[0].key} is managed; it always runs.\n`);
      await ws.writeHookState(
        targets.map((h) => ({ kind: "trust", key: h.key, hash: h.hash, contentHash: h.contentHash })),
      );
      const lines = targets.map((h) =>
        `Trusted ${h.key} (${h.hash}${h.contentHash ? `, content ${h.contentHash}` : ""})`
      );
      await ctx.out((lines.length ? lines.join("\n") : "No hooks need review.") + "\n");
    });

  const stateCommand = (name: Exclude<HookStateChange["kind"], "trust">, describe: string) =>
    withCommonOptions(hooks.command(name).description(describe))
      .argument("<key>", "hook key, or its number, from `trellis hooks list`")
      .action(async (given: string, options) => {
        const { ws, loaded, handlers } = await load(options, true);
        const hook = byNumber(handlers, given) ?? handlers.find((h) => h.key === given);
        const key = hook?.key ?? given;
        if (hook?.managed && name === "disable") {
          throw new UsageError(`Cannot disable hook "${key}": it is managed`, { field: key });
        }
        if (!hook && name !== "untrust") findHook(handlers, key, name);
        await ws.writeHookState([{ kind: name, key }]);
        await ctx.out(`${PAST[name]} ${key} (${loaded.paths.userConfig})\n`);
      });
  stateCommand("untrust", "forget a hook's trusted hash");
  stateCommand("enable", "enable a disabled hook");
  stateCommand("disable", "disable a hook");

  registerTestCommand(hooks, ctx, load);
  withCommonOptions(
    hooks.command("doctor").description("spawn every trusted hook once and report the ones that cannot run"),
  )
    .action(async (options) => {
      const { ws, handlers } = await load(options);
      const { findings, notRun: skipped } = await doctorWorkspaceHooks(ws, handlers);
      const bad = findings.filter((f) => !f.ok);
      const lines = findings.map((f) =>
        `${f.ok ? "ok  " : "FAIL"} ${f.key}${f.vendor ? ` (${f.vendor})` : ""}${
          f.problem ? `: ${f.problem}` : ""
        }`
      );
      lines.push(
        `${findings.length - bad.length} of ${findings.length} runnable hook(s) work` +
          (skipped ? `; ${skipped} not run (untrusted, modified or disabled)` : ""),
      );
      await ctx.out(lines.join("\n") + "\n");
      if (bad.length > 0) ctx.exitCode = 1;
    });
}

function registerTestCommand(
  hooks: Command,
  ctx: CliContext,
  load: (o: CommonOptions) => Promise<{ ws: Workspace; handlers: HookHandlerInfo[] }>,
): void {
  withCommonOptions(hooks.command("test").description("dispatch a synthetic event through the real engine"))
    .argument("<event>", "PreToolUse, PostToolUse, Stop, …")
    .option("--tool <name>", "canonical tool name for tool events", "Bash")
    .option("--input <json>", "tool_input for tool events; event fields (prompt, source, …) otherwise")
    .action(async (eventName: string, options) => {
      const { ws, handlers } = await load(options);
      let input: unknown;
      if (options.input !== undefined) {
        try {
          input = JSON.parse(options.input);
        } catch (error) {
          throw new UsageError(`Cannot parse --input "${options.input}": ${(error as Error).message}`, {
            field: "input",
          });
        }
      }
      const result = await testHooks(ws, handlers, eventName, { tool: options.tool, input });
      const lines = result.runs.map(describeRun);
      for (const h of result.skipped) {
        const why = h.enabled ? `${h.trust}${h.trustReason ? ` (${h.trustReason})` : ""}` : "disabled";
        lines.push(`skipped ${h.key}: ${why}`);
      }
      if (lines.length === 0) lines.push(`no ${result.event} hook matched`);
      lines.push(`outcome: ${JSON.stringify(result.outcome)}`);
      await ctx.out(lines.join("\n") + "\n");
    });
}

function describeRun(run: HookRunRecord): string {
  const head = `${run.status} ${run.handler.key} (${run.durationMs} ms, finished #${
    run.completionIndex + 1
  })`;
  const lines = [head, ...run.entries.map((e) => `    ${e.kind}: ${e.text}`)];
  // Fields Claude Code ignores are ignored here too (HK-8), but a hook author should see them.
  if (run.effect.ignored?.length) lines.push(`    ignored: ${run.effect.ignored.join(", ")}`);
  return lines.join("\n");
}

const PAST = { untrust: "Untrusted", enable: "Enabled", disable: "Disabled" } as const;

/** `2` → the second hook of `hooks list` (a key is never a bare number: it names a file). */
function byNumber(handlers: HookHandlerInfo[], given: string): HookHandlerInfo | undefined {
  return /^[1-9][0-9]*$/.test(given) ? handlers[Number(given) - 1] : undefined;
}

function findHook(handlers: HookHandlerInfo[], key: string, action: string): HookHandlerInfo {
  const hook = byNumber(handlers, key) ?? handlers.find((h) => h.key === key);
  if (!hook) {
    throw new UsageError(`Cannot ${action} hook "${key}": no such hook (see \`trellis hooks list\`)`, {
      field: key,
    });
  }
  return hook;
}

function listEntry(h: HookHandlerInfo) {
  return {
    key: h.key,
    event: h.event,
    matcher: h.matcher ?? null,
    if: h.ifRule ?? null,
    async: h.async === true,
    asyncRewake: h.rewake !== undefined,
    // #24 item 2: the handler type; `command` is the URL, prompt text or server/tool of the others.
    type: h.type ?? "command",
    command: h.command,
    args: h.args ?? null,
    once: h.once === true,
    source: h.sourcePath,
    sourceKind: h.sourceKind,
    origin: h.origin ?? "trellis",
    vendorEvent: h.vendorEvent ?? null,
    plugin: h.plugin?.pluginId ?? null,
    trust: h.trust,
    trustReason: h.trustReason ?? null,
    hash: h.hash,
    contentHash: h.contentHash ?? null,
    enabled: h.enabled,
    runnable: h.runnable,
  };
}
