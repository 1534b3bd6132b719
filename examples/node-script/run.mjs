#!/usr/bin/env node
// Runs an agent from a Node script (Node 20+, plain JavaScript, agent-console-kit/core only: no
// React) and prints its answer as it streams.
//
//   node run.mjs <agent id> "Where is my laptop?"                  a chat agent: one message
//   node run.mjs <agent id> --input title="New site" --input due_date=2026-12-01   a form agent
//
// The service and its token come from the environment, never from the command line:
//   AGENT_SERVICE_URL    e.g. https://acme-be.example.com
//   AGENT_SERVICE_TOKEN  the bearer token
//   AGENT_SERVICE_API    rest-v1 (default) or platform
import { parseArgs } from 'node:util';
import {
  buildRunInput,
  createAgentClient,
  createRunStream,
  findMissingFields,
  formFieldsFromSchema,
} from 'agent-console-kit/core';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { input: { type: 'string', multiple: true, default: [] } },
});
const [agentId, message] = positionals;
if (agentId === undefined || (message === undefined && values.input.length === 0)) {
  console.error('Usage: node run.mjs <agent id> "message" | --input name=value [--input ...]');
  process.exit(2);
}
const baseUrl = process.env.AGENT_SERVICE_URL;
if (!baseUrl) {
  console.error('Set AGENT_SERVICE_URL (and AGENT_SERVICE_TOKEN).');
  process.exit(2);
}

const client = createAgentClient({
  baseUrl,
  api: process.env.AGENT_SERVICE_API === 'platform' ? 'platform' : 'rest-v1',
  // Asked on every request: a token read fresh from the environment (or a secret store).
  token: () => process.env.AGENT_SERVICE_TOKEN,
});

/** `--input name=value` pairs as the form's values: numbers and booleans by the field's kind. */
function formInput(fields, pairs) {
  const given = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--input ${pair}: expected name=value`);
    given[pair.slice(0, at)] = pair.slice(at + 1);
  }
  const typed = {};
  for (const field of fields) {
    const value = given[field.name] ?? field.defaultValue;
    if (typeof value !== 'string' || value === '') typed[field.name] = value;
    else if (field.kind === 'number' || field.kind === 'integer') typed[field.name] = Number(value);
    else if (field.kind === 'boolean') typed[field.name] = value === 'true';
    else typed[field.name] = value;
  }
  return buildRunInput(fields, typed);
}

const request = { agentId };
if (message !== undefined) {
  request.messages = [{ role: 'USER', content: [{ type: 'text', text: message }] }];
} else {
  const schemas = await client.getAgentSchemas(agentId);
  const fields = formFieldsFromSchema(schemas.input_schema);
  request.input = formInput(fields, values.input);
  const missing = findMissingFields(fields, request.input);
  if (missing.length > 0) {
    console.error(`Missing: ${missing.map((name) => `--input ${name}=…`).join(' ')}`);
    process.exit(2);
  }
}

const stream = createRunStream(client);
let printed = 0;
stream.subscribe(() => {
  const { text } = stream.getSnapshot();
  process.stdout.write(text.slice(printed));
  printed = text.length;
});
// Ctrl+C stops the run: the request to the service is aborted.
process.once('SIGINT', () => stream.abort());

const final = await stream.start(request);
process.stdout.write(final.text.slice(printed) + '\n');
if (final.status !== 'done') {
  // The error's message never holds the token.
  console.error(`The run ended ${final.status}: ${final.error?.message ?? 'no answer'}`);
  process.exitCode = 1;
}
