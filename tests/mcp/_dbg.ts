import { fixture, startRuntime, stdio } from "./_helpers.ts";
const { runtime, events } = await startRuntime([stdio("fx", [fixture("fixture_server.mjs"), "echo"])]);
await runtime.awaitStartup({ graceMs: 10000 });
console.log(JSON.stringify(events));
await runtime.shutdown();
