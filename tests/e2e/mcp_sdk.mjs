// `llmsim-cli mcp` driven by the official MCP TypeScript SDK's client (@modelcontextprotocol/sdk, pinned in
// package.json) over its real StdioClientTransport: connect (initialize + notifications/initialized), listTools, call
// each tool, and bad calls. The SDK validates every message against the specification's schemas, so a malformed
// answer fails here. No browser, no network: a few seconds.
//   node tests/e2e/mcp_sdk.mjs --cli build/llmsim-cli
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cliArg = process.argv.indexOf('--cli');
const cli = path.resolve(cliArg > 0 ? process.argv[cliArg + 1] : 'build/llmsim-cli');
if (!existsSync(path.join(here, 'node_modules', '@modelcontextprotocol', 'sdk'))) {
  console.error('mcp_sdk: tests/e2e/node_modules/@modelcontextprotocol/sdk is missing: run scripts/setup.sh test');
  process.exit(1);
}
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { LATEST_PROTOCOL_VERSION } = await import('@modelcontextprotocol/sdk/types.js');

let failed = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failed++;
}

const transport = new StdioClientTransport({ command: cli, args: ['mcp'], stderr: 'pipe' });
let stderr = '';
transport.stderr?.on('data', (d) => { stderr += d; });
const client = new Client({ name: 'llmsim-test', version: '0.0.0' });
await client.connect(transport);
check(client.getServerVersion()?.name === 'llmsim', `initialize: serverInfo.name llmsim (SDK asks ${LATEST_PROTOCOL_VERSION})`);
check(client.getServerCapabilities()?.tools !== undefined, 'initialize: the tools capability');

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
check(JSON.stringify(names) === JSON.stringify(['memory', 'predict', 'recommend_hardware', 'recommend_models', 'best_models', 'serve', 'cost']),
      `listTools: ${names.join(', ')}`);
check(tools.every((t) => t.inputSchema.type === 'object' && t.description.length > 20), 'each tool has an object schema and a description');

// one valid call per tool, with what each answer must hold (written by hand: the request's own keys echoed, or a
// figure worked out from the model's shape)
const calls = {
  memory: [{ model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', ctx: 32768, hardware: 'rtx-4090' },
    // KV cache f16: 28 layers x 4 KV heads x 128 dims x (K + V) x 2 bytes x 32768 tokens
    (a) => a.kv_cache_bytes === 28 * 4 * 128 * 2 * 2 * 32768 && a.status === 'COMFORTABLE'],
  predict: [{ id: 'x', model: 'Qwen/Qwen2.5-7B-Instruct', quant: 'Q4_K_M', hardware: 'rtx-4090', test: { kind: 'decode', tokens: 128 } },
    (a) => a.id === 'x' && a.tokens_per_s > 0 && a.low <= a.tokens_per_s && a.tokens_per_s <= a.high],
  recommend_hardware: [{ model: 'qwen2.5:7b', ctx: 8192, min_decode_tps: 20 },
    (a) => a.model === 'Qwen/Qwen2.5-7B-Instruct' && a.quant === 'Q4_K_M' && a.ctx === 8192 && a.accepted.length > 0],
  recommend_models: [{ hardware: 'rtx-4090', ctx: 8192, min_decode_tps: 20 },
    (a) => a.hardware === 'rtx-4090' && a.models.length > 0 && a.models.every((m) => m.decode_full_tps >= 20)],
  // Aider polyglot (scripts/catalog/quality_scores.json): Qwen3-32B 40.0 ranks first for coding on a 24 GB RTX 4090
  best_models: [{ hardware: 'rtx-4090', task: 'coding', ctx: 8192, min_decode_tps: 10 },
    (a) => a.ranked.length >= 2 && a.ranked[0].model === 'Qwen/Qwen3-32B'],
  serve: [{ engine: 'vllm', model: 'meta-llama/Llama-3.1-8B-Instruct', hardware: 'h100-sxm', workload: { input_len: 512, output_len: 128, concurrency: 8 } },
    (a) => a.ok === true],
  cost: [{ model: 'Qwen/Qwen2.5-7B-Instruct', hardware: 'rtx-4090', hours_per_month: 365, rent_usd_per_hour: 1.5 },
    (a) => a.active_hours_per_month === 365 && Math.abs(a.rent_usd_per_month - 547.5) < 1e-9],
};
for (const [name, [args, holds]] of Object.entries(calls)) {
  const r = await client.callTool({ name, arguments: args });
  const answer = r.structuredContent ?? JSON.parse(r.content[0].text);
  let ok = false;
  try { ok = !r.isError && holds(answer); } catch { ok = false; }
  check(ok, `callTool ${name}: ${ok ? 'holds' : JSON.stringify(r).slice(0, 300)}`);
}

// bad calls: arguments the engine refuses are a tool result with isError (the CLI's words); an unknown tool is a
// JSON-RPC error -32602 the SDK throws; the server keeps serving after both
const bad = await client.callTool({ name: 'cost', arguments: { model: 'nobody/none', hardware: 'rtx-4090' } });
check(bad.isError === true && bad.content[0].text.startsWith("cost: unknown model 'nobody/none'"), `bad model: ${bad.content[0].text}`);
const badQuant = await client.callTool({ name: 'memory', arguments: { model: 'Qwen/Qwen2.5-7B-Instruct', kv_type: 'q3' } });
check(badQuant.isError === true && badQuant.content[0].text.includes('kv_type'), `bad kv_type: ${badQuant.content[0].text}`);
let code = null;
try { await client.callTool({ name: 'no_such_tool', arguments: {} }); } catch (e) { code = e.code; }
check(code === -32602, `unknown tool: JSON-RPC error ${code}`);
await client.ping();
check(true, 'ping after the bad calls');

await client.close();
check(stderr.includes('llmsim-cli mcp: serving 7 tools'), 'the server logs on stderr only');
console.log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
