import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentClient } from 'agent-console-kit';
import { createRunStream, eventsToNdjson } from 'agent-console-kit/core';

// JSON.parse accepts any depth; JSON.stringify overflows the stack a few thousand levels down.
// A server sends payloads 10,000 and 100,000 levels deep: every export must still work.

const token = 'tok-Secret42-deep';
let server: Server | undefined;

afterEach(async () => {
  const current = server;
  server = undefined;
  if (current === undefined) return;
  current.closeAllConnections();
  await new Promise<void>((resolve) => current.close(() => resolve()));
});

async function serveFrames(frames: string[]): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames) response.write(frame);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** `{"a":{"a":…{"a":"<leaf>"}…}}`, `depth` objects deep. */
const nestedObjects = (depth: number, leaf: string) =>
  `${'{"a":'.repeat(depth)}"${leaf}"${'}'.repeat(depth)}`;

/** How many arrays or objects deep `value` goes, counted without recursion. */
function depthOf(value: unknown): number {
  let depth = 0;
  let current: unknown = value;
  while (typeof current === 'object' && current !== null) {
    depth += 1;
    current = Array.isArray(current) ? current[0] : (current as { a?: unknown }).a;
  }
  return depth;
}

describe.each([10_000, 100_000])('given payloads %i levels deep through a real stream', (depth) => {
  it('keeps every event, and the NDJSON export is valid and parses back to each payload', async () => {
    const url = await serveFrames([
      `event: deep\nid: 1\ndata: ${nestedArrays(depth)}\n\n`,
      `event: message\nid: 2\ndata: {"messages":[{"role":"GLEAN_AI","content":[{"type":"text","text":"ok"}]}],"extra":${nestedArrays(depth)}}\n\n`,
      // Pretty-printed over several data lines, the token escaped at the bottom.
      `event: deep\nid: 3\ndata: ${nestedObjects(depth, '\\u0074ok-Secret42-deep')}\ndata: \n\n`,
    ]);
    const stream = createRunStream(createAgentClient({ baseUrl: url, api: 'platform', token }));

    const final = await stream.start({
      agentId: 'agent',
      messages: [{ role: 'USER', content: [{ type: 'text', text: 'Hi' }] }],
    });

    expect(final.status).toBe('done');
    expect(final.events.map((event) => event.kind)).toEqual(['unknown', 'message', 'unknown']);
    expect(final.text).toBe('ok');
    const ndjson = eventsToNdjson(final.events);
    expect(ndjson.endsWith('\n')).toBe(true);
    const lines = ndjson.slice(0, -1).split('\n');
    expect(lines).toHaveLength(3);
    const parsed = lines.map((line) => JSON.parse(line) as { sequence: number; payload: unknown });
    expect(parsed.map((line) => line.sequence)).toEqual([1, 2, 3]);
    expect(lines[0]?.endsWith(`"payload":${nestedArrays(depth)}}`)).toBe(true);
    expect(depthOf(parsed[0]?.payload)).toBe(depth);
    expect(depthOf((parsed[1]?.payload as { extra: unknown }).extra)).toBe(depth);
    expect(depthOf(parsed[2]?.payload)).toBe(depth);
    expect(lines[2]?.endsWith(`${nestedObjects(depth, '[redacted]')}}`)).toBe(true);
    expect(ndjson).not.toContain('Secret42');
  });
});
