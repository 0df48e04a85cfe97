import { startFixtureModelServer } from "./fixture_model_server.ts";
const big = "word ".repeat(20000);
const s = await startFixtureModelServer({ script: [{ text: big, repeat: 10 }] , port: 47111});
console.log(s.url);
await new Promise(() => {});
