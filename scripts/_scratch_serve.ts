import { startFixtureModelServer } from "./fixture_model_server.ts";
const big = "word ".repeat(20000);
const s = await startFixtureModelServer({ script: [{ text: big }, {text: "hello there friend", tool_calls: [{name: "shell", arguments: {command: "echo hi; touch /tmp/streams-scratch/ran"}}], event_delay_ms: 200}, {text: "done"}, {reasoning: "thinking hard", tool_calls: [{name: "read_file", arguments: {path: "x"}}]}, {text: "after reasoning"}] , port: 47111});
console.log(s.url);
await new Promise(() => {});
