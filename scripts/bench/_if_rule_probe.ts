/** Built into a probe binary by if_rule.ts: prints the Bash parser's load time and the first judgement's, in ms. */
import { loadBashParser } from "../../lib/hooks/shell_parser.ts";
import { judgeIfRule, parseIfRule } from "../../lib/hooks/mod.ts";

const started = performance.now();
await loadBashParser();
const loaded = performance.now();
const rule = parseIfRule("Bash(git push:*)");
if (!rule.ok) throw new Error(rule.error);
const line = "cd repo && FOO=1 sudo -E timeout 60 bash -lc 'git fetch && git push origin main' | tee log";
await judgeIfRule(rule.rule, { names: ["Bash"], input: { command: line }, cwd: "/", home: "/" });
console.log(JSON.stringify({ load: loaded - started, firstJudge: performance.now() - loaded }));
