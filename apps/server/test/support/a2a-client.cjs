'use strict';
// The official A2A SDK (@a2a-js/sdk) as a client of our A2A agent, run as its own Node process: the SDK depends on
// jose 6, which is ESM-only and cannot be loaded inside Jest's CommonJS runtime (plain Node 20.19+ loads it through
// require(esm)). Reads the agent card at argv[2], sends each message of argv[3..] with the SDK's A2A 0.3 JSON-RPC
// transport and prints one JSON line: the parsed card and the answers.
const { isLegacyAgentCard, parseLegacyAgentCard, LegacyJsonRpcTransport } = require('@a2a-js/sdk/compat/v0_3/client');

async function main() {
  const [cardUrl, ...texts] = process.argv.slice(2);
  const raw = await (await fetch(cardUrl)).json();
  const out = { legacy: isLegacyAgentCard(raw), card: parseLegacyAgentCard(raw), answers: [] };
  const transport = new LegacyJsonRpcTransport({ endpoint: raw.url });
  for (const text of texts) {
    const result = await transport.sendMessage({
      tenant: '',
      message: { messageId: `m-${out.answers.length}`, contextId: '', taskId: '', role: 1, parts: [{ content: { $case: 'text', value: text } }], metadata: undefined, extensions: [], referenceTaskIds: [] },
      configuration: undefined,
      metadata: undefined,
    });
    out.answers.push(result);
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => {
  process.stdout.write(`${JSON.stringify({ error: String(err && err.message ? err.message : err) })}\n`);
  process.exit(1);
});
