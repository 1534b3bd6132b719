/**
 * Runs the SSE conformance rows (test/support/sse-conformance-corpus.ts) through a transport, each
 * row written by a real `node:http` server in the chunks it names (and, for some, split at every
 * byte): the test file of each runtime calls {@link describeConformance}.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { createAgentClient, type SseTransport } from 'agent-console-kit/core';
import {
  conformanceRows,
  type ConformanceOutput,
  type ConformanceRow,
} from './sse-conformance-corpus.js';

const encoder = new TextEncoder();

function chunksOf(row: ConformanceRow): Uint8Array[] {
  const parts = typeof row.input === 'string' ? [row.input] : row.input;
  return parts.map((part) =>
    typeof part === 'string' ? encoder.encode(part) : Uint8Array.from(part),
  );
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const result = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    result.set(chunk, offset);
    offset += chunk.length;
  }
  return result;
}

/** The ways a row is written: as given, and for some split at every byte and byte by byte. */
function variantsOf(row: ConformanceRow): { name: string; chunks: Uint8Array[] }[] {
  const given = chunksOf(row);
  const variants = [{ name: 'as written', chunks: given }];
  if (row.splitEverywhere === true) {
    const bytes = concat(given);
    for (let position = 1; position < bytes.length; position++) {
      variants.push({
        name: `split at byte ${position}`,
        chunks: [bytes.subarray(0, position), bytes.subarray(position)],
      });
    }
    variants.push({
      name: 'one byte at a time',
      chunks: Array.from(bytes, (byte) => Uint8Array.of(byte)),
    });
  }
  return variants;
}

/** The standard's output as the transport's contract has it: an event with empty data is none. */
function expectedOutput(row: ConformanceRow): ConformanceOutput {
  return {
    // SseMessage.data is never empty: such an event carries nothing for a run.
    events: row.events.filter((event) => event.data !== ''),
    retries: [...(row.retries ?? [])],
  };
}

export function describeConformance(transport: SseTransport): void {
  let server: Server;
  let baseUrl = '';
  const streams = new Map<string, Uint8Array[]>();
  let nextStream = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      const chunks = streams.get(request.url ?? '') ?? [];
      response.socket?.setNoDelay(true);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      void (async () => {
        for (const chunk of chunks) {
          // A pause between writes, so that each chunk reaches the client on its own.
          await new Promise((resolve) => setTimeout(resolve, 2));
          response.write(chunk);
        }
        response.end();
      })();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function read(chunks: Uint8Array[]): Promise<ConformanceOutput> {
    const prefix = `/stream/${nextStream++}`;
    // The client sends the request (its base URL a path prefix) and the transport reads the answer.
    const path = `${prefix}/rest/api/v1/agents/runs/stream`;
    streams.set(path, chunks);
    const output: ConformanceOutput = { events: [], retries: [] };
    await createAgentClient({ baseUrl: `${baseUrl}${prefix}` }).streamRun(
      { agentId: 'agent' },
      {
        transport,
        signal: new AbortController().signal,
        onMessage: (message) =>
          output.events.push({
            type: message.event,
            data: message.data,
            lastEventId: message.lastEventId ?? '',
          }),
        onRetry: (retryMs) => output.retries.push(retryMs),
      },
    );
    streams.delete(path);
    return output;
  }

  describe.each(conformanceRows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const expected = expectedOutput(row);
    it(`reads: ${JSON.stringify(expected.events)}`, async () => {
      for (const variant of variantsOf(row)) {
        expect(await read(variant.chunks), variant.name).toEqual(expected);
      }
    });
  });
}
