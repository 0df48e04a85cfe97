import { startFixtureModelServer } from "./fixture_model_server.ts";
const s = await startFixtureModelServer({ script: [{ text: "endless stream of words ", endless: true, repeat: 10 }] , port: 47111});
console.log(s.url);
await new Promise(() => {});
