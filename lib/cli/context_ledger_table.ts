import type { ContextLedger } from "../app/mod.ts";
import { terminalText } from "../shared/mod.ts";

/**
 * The context ledger as a table a person reads (`trellis debug context`, `/context`): tokens and
 * share of the window per source, the total, then advice, warnings and notes. Names come from config
 * and file paths, so they are made terminal-safe here.
 */
export function contextLedgerLines(ledger: ContextLedger): string[] {
  const window = ledger.contextWindow;
  const counting = ledger.encoding === "estimate"
    ? "ESTIMATE (characters / 4)"
    : `${ledger.encoding} (exact)`;
  const lines = [
    `context ledger: model ${terminalText(ledger.model || "(none)")}, tokens by ${counting}, window ${
      window ? `${number(window)} tokens` : "unknown (set model_context_window)"
    }`,
    "",
    `${"tokens".padStart(9)}  ${"share".padStart(6)}  source`,
  ];
  const share = (n: number) => window ? `${((n / window) * 100).toFixed(1)}%` : "—";
  for (const row of ledger.rows) {
    const count = row.items > 1 ? ` (${row.items})` : "";
    lines.push(
      `${number(row.tokens).padStart(9)}  ${share(row.tokens).padStart(6)}  ${
        terminalText(row.name, { lineBreaks: "show" })
      }${count}`,
    );
  }
  lines.push(`${number(ledger.total).padStart(9)}  ${share(ledger.total).padStart(6)}  total`);
  if (ledger.providerTotal) {
    const exact = ledger.providerTotal.tokens;
    lines.push(
      `${number(exact).padStart(9)}  ${share(exact).padStart(6)}  total counted by the provider (exact)`,
    );
  }
  if (ledger.agents.length > 0) {
    lines.push("", "subagents (each its own context window; their answers are in the tool outputs above):");
    for (const a of ledger.agents) {
      lines.push(
        `${number(a.tokens).padStart(9)}  ${share(a.tokens).padStart(6)}  ${terminalText(a.agentType)} ${
          terminalText(a.agentId)
        }`,
      );
    }
  }
  if (ledger.advice.length > 0) {
    lines.push("", "advice:", ...ledger.advice.map((a) => `  - ${terminalText(a)}`));
  }
  for (const w of ledger.warnings) lines.push(`warning: ${terminalText(w)}`);
  for (const n of ledger.notes) lines.push(`note: ${terminalText(n)}`);
  return lines;
}

function number(n: number): string {
  return n.toLocaleString("en-US");
}
