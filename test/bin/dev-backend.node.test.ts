// `agent-console-kit dev` in-process (startDevBackend): the mock service, the proxy and the
// embedded store on one socket, as the demo user; the data folder keeps threads and runs across a
// restart; an origin that is not allowed gets no CORS answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createAgentClient, createServerThreadStore } from 'agent-console-kit/core';
import { startDevBackend } from '../../src/bin/dev-backend.js';

describe('the dev backend', () => {
  it('serves agents, threads and runs for the demo user, kept in the data folder across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ack-dev-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const lines: string[] = [];
    let backend = await startDevBackend({ port: 0, dataDir, log: (line) => lines.push(line) });
    try {
      const client = createAgentClient({ baseUrl: backend.proxyUrl, api: 'platform' });
      const run = await client.startDurableRun('approval-agent', {
        messages: [{ role: 'USER', content: [{ type: 'text', text: 'Tell the team' }] }],
      });
      const threads = createServerThreadStore({ baseUrl: backend.proxyUrl });
      await threads.save({
        id: 'thread-dev',
        agentId: 'approval-agent',
        messages: [{ id: 'm1', role: 'USER', text: 'Tell the team', status: 'done', createdAt: 1 }],
      });
      expect(await backend.store.getRun('demo-user', run.runId)).toMatchObject({
        agentId: 'approval-agent',
        title: 'Tell the team',
      });
      expect(lines).toContain('POST /api/agent-service/api/agents/approval-agent/runs 201');
      expect(lines).toContain('PUT /api/agent-service/threads/thread-dev 200');
    } finally {
      await backend.close();
    }

    backend = await startDevBackend({ port: 0, dataDir });
    try {
      const threads = createServerThreadStore({ baseUrl: backend.proxyUrl });
      expect((await threads.list()).threads.map((thread) => thread.id)).toEqual(['thread-dev']);
      const runs = (await (await fetch(`${backend.proxyUrl}/runs`)).json()) as {
        runs: { title: string }[];
      };
      expect(runs.runs.map((item) => item.title)).toEqual(['Tell the team']);
    } finally {
      await backend.close();
    }
  });

  it('answers CORS only for the origins it was given', async () => {
    const backend = await startDevBackend({
      port: 0,
      allowOrigins: ['http://localhost:6006'],
    });
    onTestFinished(() => backend.close());
    const preflight = (origin: string) =>
      fetch(`${backend.proxyUrl}/threads/t`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT' },
      });
    const allowed = await preflight('http://localhost:6006');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:6006');
    const other = await preflight('http://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const list = await fetch(`${backend.proxyUrl}/threads`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
  });
});
