import { startFixtureModelServer } from "/work/wt/interactive2/scripts/fixture_model_server.ts";
const s = await startFixtureModelServer({ script: { steps: Array.from({ length: 50 }, (_, i) => ({ text: `answer ${i}` })) } });
await Deno.writeTextFile("/tmp/i2m/url", s.url);
await new Promise(() => {});
