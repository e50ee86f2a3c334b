'use strict';
// A real A2A agent from @a2a-js/sdk on loopback, run as its own Node process: the SDK depends on jose 6, which is
// ESM-only and cannot be loaded inside Jest's CommonJS runtime (plain Node 20.19+ loads it through require(esm)).
// Prints "A2A agent listening on <url>" once ready; stops on SIGTERM.
const express = require('express');
const { AGENT_CARD_PATH } = require('@a2a-js/sdk');
const { DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, UserBuilder } = require('@a2a-js/sdk/server/express');

const HOME = '<!doctype html><html><head><title>Helper</title><meta name="description" content="A helper agent."></head><body><h1>Helper</h1><p>An A2A agent lives here.</p></body></html>';

const app = express();
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'Helper agent',
    description: 'Answers questions about the weather.',
    // A2A_CARD_RPC_URL: the card names another interface (a path here that is no endpoint, or a port where nothing
    // listens) while the agent still serves at /a2a/jsonrpc: a card that points at nothing (issue 39).
    supportedInterfaces: [{ url: new URL(process.env.A2A_CARD_RPC_URL ?? '/a2a/jsonrpc', base).href, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'weather', name: 'Weather', description: 'Answers weather questions', tags: ['weather'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const executor = { execute: async () => undefined, cancelTask: async () => undefined };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.get('/', (_req, res) => res.type('html').send(HOME));
  process.stdout.write(`A2A agent listening on ${base}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
