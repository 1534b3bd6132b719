import { redactJsonText, redactText } from '../core/wire/secrets.js';

// A line held this long without a line break is passed on, all but a tail that could still hold
// the start of a secret (an escaped one is up to six times its length).
const heldLineLimit = 64 * 1024;
const heldTail = 8 * 1024;

/**
 * The service's answer with the proxy's secrets (the token, the values of the headers it adds)
 * replaced, as written and as a JSON string escapes them: a service that echoes a request must not
 * hand the server's token to the browser. Without secrets the body passes through untouched.
 */
export async function redactAnswer(
  upstream: Response,
  secrets: readonly string[],
): Promise<BodyInit | null> {
  if (upstream.body === null || secrets.length === 0) return upstream.body;
  const type = upstream.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) return redactEventStream(upstream.body, secrets);
  return redactJsonText(await upstream.text(), secrets);
}

/**
 * An event stream redacted line by line: each complete line goes on as soon as it ends (the
 * stream stays unbuffered event by event); a `data:` value is redacted as JSON text.
 */
function redactEventStream(
  body: ReadableStream<Uint8Array>,
  secrets: readonly string[],
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held = '';
  const redactLine = (line: string) =>
    line.startsWith('data:')
      ? `data:${redactJsonText(line.slice('data:'.length), secrets)}`
      : redactText(line, secrets);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        held += decoder.decode(chunk, { stream: true });
        const lastBreak = Math.max(held.lastIndexOf('\n'), held.lastIndexOf('\r'));
        let out = '';
        if (lastBreak >= 0) {
          out = held
            .slice(0, lastBreak + 1)
            .split(/(\r\n|\r|\n)/)
            .map((part, index) => (index % 2 === 0 ? redactLine(part) : part))
            .join('');
          held = held.slice(lastBreak + 1);
        }
        if (held.length > heldLineLimit) {
          const passed = redactText(held, secrets);
          out += passed.slice(0, passed.length - heldTail);
          held = passed.slice(passed.length - heldTail);
        }
        if (out !== '') controller.enqueue(encoder.encode(out));
      },
      flush(controller) {
        held += decoder.decode();
        if (held !== '') controller.enqueue(encoder.encode(redactLine(held)));
      },
    }),
  );
}
