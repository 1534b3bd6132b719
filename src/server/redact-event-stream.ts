/**
 * An event stream with the proxy's secrets removed event by event: each event is held until the
 * blank line that dispatches it (the browser holds it as long), then checked on its joined data,
 * escapes and all, as the page's `JSON.parse` will read it. An event that holds no secret goes on
 * as it came; one that does is written again: its other lines redacted (a line still spelling a
 * secret left out), its data redacted as JSON or text on one `data:` line per line of it, or
 * replaced by `[redacted]` when a secret cannot be removed from it in place.
 */
import { redactJsonOrText } from './redact-answer.js';
import { redactedText, type SecretSpellings } from './secret-spellings.js';

/** A line of the stream and the line break that ended it (`''` for the stream's last). */
interface Line {
  text: string;
  end: string;
}

/**
 * The stream redacted. An event longer than `maxEventLength` characters (held whole to be
 * checked) errors the stream: it breaks off for the browser, as a dropped connection does.
 */
export function redactEventStream(
  body: ReadableStream<Uint8Array>,
  spellings: SecretSpellings,
  maxEventLength: number,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let scanned = 0;
  let event: Line[] = [];
  let eventLength = 0;

  const takeLines = (controller: TransformStreamDefaultController<Uint8Array>, final: boolean) => {
    let out = '';
    let start = 0;
    const lineBreaks = /[\r\n]/g;
    // What came before the last chunk had no line break (but maybe a last `\r`).
    lineBreaks.lastIndex = Math.max(0, scanned - 1);
    for (;;) {
      const found = lineBreaks.exec(pending);
      if (found === null) break;
      const at = found.index;
      // A `\r` last in what came so far may be the first half of a `\r\n`.
      if (pending[at] === '\r' && at === pending.length - 1 && !final) break;
      const end = pending.startsWith('\r\n', at) ? '\r\n' : (pending[at] ?? '');
      const text = pending.slice(start, at);
      start = at + end.length;
      lineBreaks.lastIndex = start;
      if (text === '') {
        out += redactEvent(event, spellings) + end;
        event = [];
        eventLength = 0;
      } else {
        event.push({ text, end });
        eventLength += text.length + end.length;
        if (eventLength > maxEventLength) break;
      }
    }
    pending = pending.slice(start);
    scanned = pending.length;
    if (final && pending !== '') {
      event.push({ text: pending, end: '' });
      pending = '';
    }
    if (eventLength + pending.length > maxEventLength) {
      // The events before it go on; then the stream breaks off.
      if (out !== '') controller.enqueue(encoder.encode(out));
      controller.error(new Error('An event of the agent service is larger than the proxy reads.'));
      return;
    }
    if (final && event.length > 0) out += redactEvent(event, spellings);
    if (out !== '') controller.enqueue(encoder.encode(out));
  };

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        takeLines(controller, false);
      },
      flush(controller) {
        pending += decoder.decode();
        takeLines(controller, true);
      },
    }),
  );
}

/** One event's lines as they go on: as they came, or written again without the secrets. */
function redactEvent(lines: readonly Line[], spellings: SecretSpellings): string {
  const raw = lines.map((line) => line.text + line.end).join('');
  if (!spellings.spells(raw)) return raw;
  const dataLines = lines.filter((line) => fieldOf(line.text) === 'data');
  const data = dataLines.map((line) => valueOf(line.text)).join('\n');
  const redactedData = redactJsonOrText(data, spellings) ?? redactedText;
  let out = '';
  let dataWritten = false;
  for (const line of lines) {
    if (fieldOf(line.text) !== 'data') {
      const redacted = spellings.redact(line.text);
      if (!spellings.spells(redacted)) out += redacted + (line.end || '\n');
    } else if (redactedData === data) {
      out += line.text + (line.end || '\n');
    } else if (!dataWritten) {
      dataWritten = true;
      out += redactedData
        .split(/\r\n|\r|\n/)
        .map((each) => `data: ${each}\n`)
        .join('');
    }
  }
  return out;
}

/** A line's field name: the text before its first colon (`''` for a comment). */
function fieldOf(line: string): string {
  const colon = line.indexOf(':');
  return colon === -1 ? line : line.slice(0, colon);
}

/** A field's value: after the first colon and one space. */
function valueOf(line: string): string {
  const colon = line.indexOf(':');
  if (colon === -1) return '';
  const value = line.slice(colon + 1);
  return value.startsWith(' ') ? value.slice(1) : value;
}
