import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  wireChecks,
  wireChecksModuleSource,
  wireChecksPath,
} from '../../../scripts/generate-validators.mjs';
import * as checks from '../../../src/core/wire/wire-checks.generated.js';
import * as schemas from '../../../src/core/wire/schemas.js';
import type * as WireExplain from '../../../src/core/wire/wire-explain.js';
import { wireAnswerSchemas } from '../../../src/core/wire/wire-explain.js';
import { wireAnswerChecks } from '../../../src/core/wire/client-wire.js';
import { listenForTest } from '../../support/listen-for-test.js';

const agent = { agent_id: 'a', name: 'A', capabilities: { 'ap.io.messages': true, other: 1 } };

/** Valid and invalid values for every wire check, JSON's and others only code can make. */
const values: unknown[] = [
  agent,
  { ...agent, description: null, metadata: { k: [1] }, request_id: 'r', extra: { deep: 1 } },
  { ...agent, metadata: [] },
  { ...agent, metadata: Object.create({ inherited: 1 }) },
  { ...agent, capabilities: { 'ap.io.messages': 'yes' } },
  { ...agent, description: 3 },
  { agent_id: 'a' },
  { agent },
  { agent, request_id: 7 },
  { agent: { ...agent, name: undefined } },
  {},
  { agents: [] },
  { agents: [agent, { ...agent, extra: true }] },
  { agents: [agent, { agent_id: 1, name: 'B' }] },
  { agents: {} },
  { input_schema: {}, tools: null },
  { input_schema: { properties: {} }, output_schema: null, tools: [1, 'x'] },
  { input_schema: null },
  { input_schema: [] },
  { authorizationUrl: 'https://auth.example' },
  { authorizationUrl: 1 },
  { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no', errors: [] },
  { title: 'Invalid', errors: [{ pointer: '/x', detail: 'bad', more: 1 }] },
  { title: 'Invalid', errors: [{ pointer: 1 }] },
  { status: '404' },
  { status: Number.NaN },
  { status: Number.POSITIVE_INFINITY },
  { error: { title: 'crashed', status: 500 } },
  { error: 'crashed' },
  { error: null },
  // Where a check calls another one (the agent, the problem detail): absent, inherited, holes.
  { agent: undefined },
  { agent: null, request_id: 'r' },
  { agent: [] },
  Object.create({ agent }),
  { agent: Object.create(agent) },
  { agent: { ...agent, metadata: null, description: undefined } },
  { agents: [agent, null] },
  { agents: [agent, []] },
  { agents: new Array(2) },
  { agents: [Object.create(agent)] },
  { agents: undefined, request_id: 'r' },
  { error: {} },
  { error: [] },
  { error: { errors: [{ code: 2 }] } },
  { error: { errors: {} } },
  { error: { status: Number.NaN } },
  Object.create({ error: { title: 'inherited' } }),
  JSON.parse('{"__proto__":{"x":1},"agent_id":"a","name":"A"}'),
  Object.create({ agent_id: 'a', name: 'A' }),
  [],
  null,
  undefined,
  'text',
  42,
];

describe('the compiled wire checks', () => {
  it('are what zod compiles from today’s schemas (else: npm run generate:validators)', () => {
    expect(readFileSync(wireChecksPath, 'utf8')).toBe(wireChecksModuleSource(schemas));
    expect(readFileSync(wireChecksPath, 'utf8')).not.toMatch(/from ['"]zod/);
  });

  it('answer as zod’s runtime does, for every schema', () => {
    for (const [functionName, schemaName] of wireChecks) {
      const check = checks[functionName as keyof typeof checks] as (input: unknown) => unknown;
      const schema = schemas[schemaName as keyof typeof schemas] as z.ZodMiniType;
      let accepted = 0;
      for (const value of values) {
        const runtime = z.safeParse(schema, value).success;
        expect(check(value) === true, `${schemaName} ${JSON.stringify(value)}`).toBe(runtime);
        if (runtime) accepted += 1;
      }
      expect(accepted, schemaName).toBeGreaterThan(0);
    }
  });

  it('write each check once: a check inside another is called (the agent, the problem detail)', () => {
    const source = readFileSync(wireChecksPath, 'utf8');
    // Each of these is read by one check only: the agent's capabilities and a problem's errors.
    expect(source.match(/= \w+\["ap\.io\.streaming"\];/g)).toHaveLength(1);
    expect(source.match(/= \w+\["pointer"\];/g)).toHaveLength(1);
    expect(source.match(/= checkAgent\(/g)).toHaveLength(2);
    expect(source.match(/= checkProblemDetail\(/g)).toHaveLength(1);
  });

  it('write a check inline where zod’s compiler cannot call it (under z.optional), still as zod answers', async () => {
    const platformAgentResponseSchema = z.looseObject({ agent: z.optional(schemas.agentSchema) });
    const source = wireChecksModuleSource({ ...schemas, platformAgentResponseSchema });
    const { code } = await transform(source, { loader: 'ts', format: 'esm' });
    const written = (await import(
      `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
    )) as Record<string, (input: unknown) => unknown>;
    // The agents' search answer still calls the agent check; the platform answer has it inline.
    expect(source.match(/= checkAgent\(/g)).toHaveLength(1);
    expect(source.match(/= \w+\["ap\.io\.streaming"\];/g)).toHaveLength(2);
    for (const value of [...values, { request_id: 'r' }]) {
      expect(
        written.checkPlatformAgentResponse?.(value) === true,
        JSON.stringify(value) ?? String(value),
      ).toBe(z.safeParse(platformAgentResponseSchema, value).success);
    }
  });

  it('refuse a schema whose compiled refusals are not definite', () => {
    const refined = z.looseObject({ name: z.string().check(z.refine((v) => v !== '')) });
    expect(() => wireChecksModuleSource({ ...schemas, agentSchema: refined })).toThrow(
      /not definite/,
    );
  });

  it('are what the client asks; zod’s runtime loads only to explain a refusal', async () => {
    const token = 'wire-token-0123456789';
    let body: unknown = { agent: { ...agent, extra: { kept: true } }, request_id: 'r' };
    const { url } = await listenForTest((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
    const explained: unknown[] = [];
    const { client, AgentValidationError } = await clientWith(
      url,
      token,
      async (importOriginal) => {
        const original = await importOriginal<typeof WireExplain>();
        return {
          explainWireRefusal: (...args: Parameters<typeof original.explainWireRefusal>) => {
            explained.push(args[1]);
            return original.explainWireRefusal(...args);
          },
        };
      },
    );

    const found = await client.getAgent('a');
    expect(found).toEqual({ ...agent, extra: { kept: true }, request_id: 'r' });
    expect(explained).toEqual([]);

    // A server that echoes the token: refused, explained, and the token in neither text nor body.
    body = { agent: { agent_id: 'a', capabilities: [], echoed: token } };
    const error = await client.getAgent('a').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentValidationError);
    const refusal = error as InstanceType<typeof AgentValidationError>;
    expect(refusal.issues).toEqual([
      { path: 'agent.name', message: 'expected string' },
      { path: 'agent.capabilities', message: 'expected object' },
    ]);
    expect(refusal.message).toMatch(
      /^The agent response did not match: agent\.name: expected string; /,
    );
    expect(JSON.stringify(refusal.body)).not.toContain(token);
    expect(JSON.stringify(refusal.body)).toContain('[redacted]');
    expect(explained).toHaveLength(1);
  });

  it('returns what the explanation accepts, should zod accept what its compiled check refused', async () => {
    const { url } = await listenForTest((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ agent: { agent_id: 'a' } }));
    });
    const accepted = { agent: { ...agent, name: 'As zod read it' } };
    const { client } = await clientWith(url, undefined, () => ({
      explainWireRefusal: () => accepted,
    }));

    expect(await client.getAgent('a')).toEqual(accepted.agent);
  });
});

describe('given a refused answer whose explanation cannot be loaded (a chunk the network lost)', () => {
  it('is still refused, with a validation error that says so', async () => {
    const { url } = await listenForTest((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ agent: { agent_id: 'a' } }));
    });
    const { client, AgentValidationError } = await clientWith(url, undefined, () => {
      throw new Error('Failed to fetch dynamically imported module');
    });

    const error = await client.getAgent('a').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AgentValidationError);
    expect((error as InstanceType<typeof AgentValidationError>).issues).toEqual([
      { path: '', message: 'refused (the explanation could not be loaded)' },
    ]);
  });
});

/**
 * A platform client on `url` from a fresh module graph in which wire-explain.ts is `explain`
 * (vi.doMock's factory), undone when the test ends; and that graph's AgentValidationError.
 */
async function clientWith(
  url: string,
  token: string | undefined,
  explain: Parameters<typeof vi.doMock<typeof WireExplain>>[1],
) {
  vi.resetModules();
  vi.doMock('../../../src/core/wire/wire-explain.js', explain);
  onTestFinished(() => {
    vi.doUnmock('../src/core/wire/wire-explain.js');
    vi.resetModules();
  });
  const { createAgentClient } = await import('../../../src/core/wire/agent-client.js');
  const { AgentValidationError } = await import('../../../src/core/wire/errors.js');
  return {
    client: createAgentClient({ baseUrl: url, api: 'platform', ...(token ? { token } : {}) }),
    AgentValidationError,
  };
}

describe('given the client’s answers, each checked and explained by name', () => {
  it('checks each with the check compiled from the schema that explains it', () => {
    const schemaNames = new Map(
      Object.entries(schemas).map(([schemaName, schema]) => [schema, schemaName]),
    );
    const pairs = Object.keys(wireAnswerChecks).map((name) => {
      const key = name as keyof typeof wireAnswerChecks;
      return [wireAnswerChecks[key].name, schemaNames.get(wireAnswerSchemas[key])];
    });

    expect(pairs).toHaveLength(5);
    for (const pair of pairs) expect(wireChecks).toContainEqual(pair);
  });
});
