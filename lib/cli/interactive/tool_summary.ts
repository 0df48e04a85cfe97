import { terminalText } from "../../shared/mod.ts";
import { diffLines } from "diff";
import type { Glyphs, Palette } from "./style.ts";

/** A tool call as the UI tracks it, whichever event shape announced it. */
export interface CallView {
  callId: string;
  name: string;
  /** The arguments as the model sent them (JSON text). */
  arguments: string;
  status?: string;
  output?: string;
  durationMs?: number;
}

const DIFF_MAX_LINES = 40;

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

/** The argument that matters for a tool: the command, the path, the pattern … */
export function keyArgument(call: Pick<CallView, "name" | "arguments">): string {
  const args = parseArgs(call.arguments);
  const pick = (...names: string[]) =>
    names.map((n) => args[n]).find((v) => typeof v === "string") as string | undefined;
  const command = Array.isArray(args.command) ? args.command.join(" ") : pick("command", "cmd");
  const found = command ?? pick("path", "file_path", "pattern", "query", "url", "plugin", "uri", "name") ??
    Object.values(args).find((v) => typeof v === "string") as string | undefined;
  const extra = command === undefined && typeof args.pattern === "string" && typeof args.path === "string"
    ? ` in ${args.path}`
    : "";
  return found !== undefined ? found + extra : call.arguments === "{}" ? "" : call.arguments;
}

function clip(text: string, max: number, glyphs: Glyphs): string {
  return text.length > max ? text.slice(0, max) + glyphs.ellipsis : text;
}

/** One line for a call that started: `• shell  npm test`. */
export function callStartLine(call: CallView, c: Palette, g: Glyphs, width: number): string {
  const arg = terminalText(keyArgument(call), { lineBreaks: "show" });
  return `${c.cyan(g.bullet)} ${c.bold(terminalText(call.name, { lineBreaks: "show" }))} ${
    clip(arg, Math.max(10, width - call.name.length - 6), g)
  }`;
}

function durationText(ms: number | undefined): string {
  if (ms === undefined) return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** What the output says in a few words: exit code, line count, the first line of an error. */
export function resultSummary(call: CallView): string {
  const output = call.output ?? "";
  const exit = /^Exit code: (\S+)/.exec(output);
  if (exit) {
    const body = output.replace(/^Exit code:.*\nWall time:.*\nOutput:\n?/, "");
    const lines = body.trim() === "" ? 0 : body.trimEnd().split("\n").length;
    return `exit ${exit[1]}${lines ? `, ${lines} line${lines === 1 ? "" : "s"}` : ""}`;
  }
  if (call.status && call.status !== "completed" && call.status !== "success") {
    return output.split("\n")[0];
  }
  const lines = output.trim() === "" ? 0 : output.trimEnd().split("\n").length;
  if (call.name === "read_file") return `${lines} line${lines === 1 ? "" : "s"}`;
  return lines <= 1 ? output.trim() : `${lines} lines`;
}

/**
 * The committed lines for a finished call: name, the argument that matters, result summary and
 * duration; `edit_file` and `write_file` add a coloured diff.
 */
export function callDoneLines(call: CallView, c: Palette, g: Glyphs, width: number): string[] {
  const ok = call.status === "completed" || call.status === "success";
  const mark = ok ? c.green(g.ok) : call.status === "denied" ? c.yellow(g.fail) : c.red(g.fail);
  const arg = clip(
    terminalText(keyArgument(call), { lineBreaks: "show" }),
    Math.max(10, width - call.name.length - 30),
    g,
  );
  const summary = clip(
    terminalText(resultSummary(call), { lineBreaks: "show" }),
    Math.max(10, width - 20),
    g,
  );
  const head = `${mark} ${c.bold(terminalText(call.name, { lineBreaks: "show" }))} ${arg}`;
  // Your own "no" needs no reason or timing read back to you: `✗ write_file new.txt · denied by you`.
  if (call.status === "denied" && /^denied: the user declined/.test(call.output ?? "")) {
    return [`${head} ${c.dim("· denied by you")}`];
  }
  // An output that already begins with its status (`denied: …`) does not say it twice.
  const status = ok || summary.startsWith(`${call.status}: `) ? "" : `${call.status ?? "failed"}: `;
  const tail = [summary ? `${status}${summary}` : status.replace(/: $/, ""), durationText(call.durationMs)]
    .filter(Boolean).join(" · ");
  const lines = [tail ? `${head} ${c.dim(`· ${tail}`)}` : head];
  if (ok) lines.push(...diffFor(call, c, g));
  return lines;
}

function diffFor(call: CallView, c: Palette, g: Glyphs): string[] {
  const args = parseArgs(call.arguments);
  if (
    call.name === "edit_file" && typeof args.old_string === "string" && typeof args.new_string === "string"
  ) {
    return coloredDiff(args.old_string, args.new_string, c, g);
  }
  if (call.name === "write_file" && typeof args.content === "string") {
    return coloredDiff("", args.content, c, g);
  }
  return [];
}

/** `-`/`+` lines (red/green) of a line diff, at most 40, indented under the call. */
export function coloredDiff(before: string, after: string, c: Palette, g: Glyphs): string[] {
  const out: string[] = [];
  let hidden = 0;
  for (const part of diffLines(terminalText(before, { tabWidth: 2 }), terminalText(after, { tabWidth: 2 }))) {
    const lines = part.value.replace(/\n$/, "").split("\n");
    for (const line of lines) {
      if (!part.added && !part.removed) continue;
      if (out.length >= DIFF_MAX_LINES) {
        hidden++;
        continue;
      }
      out.push(part.added ? c.green(`    + ${line}`) : c.red(`    - ${line}`));
    }
  }
  if (hidden) out.push(c.dim(`    ${g.ellipsis} ${hidden} more changed line${hidden === 1 ? "" : "s"}`));
  return out;
}
