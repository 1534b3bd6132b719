/**
 * SSE conformance rows: a stream as the server writes it → the events the WHATWG HTML standard
 * dispatches for it ("Interpreting an event stream": lines end at CRLF, LF or CR; a line that
 * starts with a colon is a comment; the field name runs to the first colon, or is the whole line;
 * one space after the colon is dropped; `data` appends its value and a LF, `event` sets the type,
 * `id` sets the last event id unless its value holds NUL, `retry` applies when its value is ASCII
 * digits only, other fields are ignored; a blank line dispatches unless the data is empty, with the
 * last event id so far; one byte order mark is dropped at the start of the stream only; an event
 * not ended by a blank line when the stream ends is not dispatched).
 *
 * Written from the standard's text, not copied from a suite. Each row runs through the transport
 * against a real server (test/support/sse-conformance.ts), in jsdom and in plain Node.
 */

/** One dispatched event, as the standard's `MessageEvent` has it. */
export interface ConformanceEvent {
  type: string;
  data: string;
  lastEventId: string;
}

/** What a transport made of a stream: its events and the `retry:` values it applied. */
export interface ConformanceOutput {
  events: ConformanceEvent[];
  retries: number[];
}

export interface ConformanceRow {
  name: string;
  /** The stream: one string, or the chunks it is written in (strings, or bytes). */
  input: string | readonly (string | readonly number[])[];
  /** The events the standard dispatches (those with empty data included). */
  events: readonly ConformanceEvent[];
  /** The reconnection times the standard applies, in order. */
  retries?: readonly number[];
  /** Also write it split in two at every byte, and one byte at a time. */
  splitEverywhere?: boolean;
}

const message = (data: string, lastEventId = ''): ConformanceEvent => ({
  type: 'message',
  data,
  lastEventId,
});

export const conformanceRows: readonly ConformanceRow[] = [
  // Line endings
  { name: 'LF', input: 'data: a\n\n', events: [message('a')], splitEverywhere: true },
  {
    name: 'two data lines joined by LF',
    input: 'data: a\ndata: b\n\n',
    events: [message('a\nb')],
  },
  {
    name: 'CRLF',
    input: 'data: a\r\ndata: b\r\n\r\n',
    events: [message('a\nb')],
    splitEverywhere: true,
  },
  { name: 'CR', input: 'data: a\rdata: b\r\r', events: [message('a\nb')], splitEverywhere: true },
  {
    name: 'CR, LF and CRLF mixed in one stream',
    input: 'data: a\r\n\ndata: b\r\rdata: c\n\r\ndata: d\r\n\r',
    events: [message('a'), message('b'), message('c'), message('d')],
    splitEverywhere: true,
  },
  {
    name: 'LF CR is two line ends, not one',
    input: 'data: a\n\rdata: b\n\n',
    events: [message('a'), message('b')],
  },
  {
    name: 'a CR that ends the stream ends the blank line',
    input: 'data: a\r\r',
    events: [message('a')],
  },
  // Comments and field parsing
  {
    name: 'comments are ignored, before, inside and after an event',
    input: ': hello\ndata: a\n:\n: data: b\n\n',
    events: [message('a')],
    splitEverywhere: true,
  },
  {
    name: 'a comment-only block dispatches nothing',
    input: ': keep-alive\n\n: keep-alive\n\ndata: a\n\n',
    events: [message('a')],
  },
  {
    name: 'one leading space of a value is dropped, no more, no tab',
    input: 'data:  two\n\ndata:none\n\ndata:\ttab\n\n',
    events: [message(' two'), message('none'), message('\ttab')],
  },
  {
    name: 'the field name runs to the first colon only',
    input: 'data: a: b:c\n\n',
    events: [message('a: b:c')],
  },
  {
    name: 'field names are case-sensitive and unknown fields are ignored',
    input: 'Data: no\nDATA: no\nfoo: bar\ndata: a\n\n',
    events: [message('a')],
  },
  {
    name: 'a leading space makes another field name',
    input: ' data: no\n\ndata: a\n\n',
    events: [message('a')],
  },
  {
    name: 'a field without colon has the empty value',
    input: 'data\ndata\ndata: a\n\n',
    events: [message('\n\na')],
  },
  {
    name: 'data alone with nothing else is an event with empty data',
    input: 'data\n\ndata:\n\ndata: a\n\n',
    events: [message(''), message(''), message('a')],
  },
  {
    name: 'two empty data lines make a LF',
    input: 'data:\ndata:\n\n',
    events: [message('\n')],
  },
  {
    name: 'an empty data line before a value keeps its LF',
    input: 'data:\ndata: a\n\n',
    events: [message('\na')],
  },
  {
    name: 'a trailing empty data line keeps its LF',
    input: 'data: a\ndata:\n\n',
    events: [message('a\n')],
  },
  // Event types
  {
    name: 'event sets the type of one event only',
    input: 'event: add\ndata: 1\n\ndata: 2\n\n',
    events: [{ type: 'add', data: '1', lastEventId: '' }, message('2')],
  },
  {
    name: 'the last event field wins; an empty one is message',
    input: 'event: a\nevent: b\ndata: 1\n\nevent\ndata: 2\n\nevent:\ndata: 3\n\n',
    events: [{ type: 'b', data: '1', lastEventId: '' }, message('2'), message('3')],
  },
  {
    name: 'an event type without data dispatches nothing and does not carry over',
    input: 'event: lost\n\ndata: a\n\n',
    events: [message('a')],
  },
  // The last event id
  {
    name: 'the last event id persists across events without id',
    input: 'id: 1\ndata: a\n\ndata: b\n\ndata: c\n\n',
    events: [message('a', '1'), message('b', '1'), message('c', '1')],
    splitEverywhere: true,
  },
  {
    name: 'an id-only block moves the last event id',
    input: 'data: a\n\nid: 7\n\ndata: b\n\n',
    events: [message('a'), message('b', '7')],
    splitEverywhere: true,
  },
  {
    name: 'an id after the data in the same block applies to it',
    input: 'data: a\nid: 3\n\n',
    events: [message('a', '3')],
  },
  {
    name: 'an empty id resets the last event id, with or without colon',
    input: 'id: 1\ndata: a\n\nid\ndata: b\n\nid: 2\n\nid:\ndata: c\n\n',
    events: [message('a', '1'), message('b'), message('c')],
  },
  {
    name: 'an id holding NUL is ignored',
    input: 'id: 1\ndata: a\n\nid: 2\u00003\ndata: b\n\nid: \u0000\n\ndata: c\n\n',
    events: [message('a', '1'), message('b', '1'), message('c', '1')],
    splitEverywhere: true,
  },
  {
    name: 'an id keeps spaces after the first, and any character',
    input: 'id:  5 \ndata: a\n\nid: é東👋\ndata: b\n\n',
    events: [message('a', ' 5 '), message('b', 'é東👋')],
    splitEverywhere: true,
  },
  {
    name: 'the last id field of a block wins',
    input: 'id: 1\nid: 2\ndata: a\n\n',
    events: [message('a', '2')],
  },
  // retry
  {
    name: 'retry applies ASCII digits only',
    input:
      'retry: 1500\ndata: a\n\nretry: 12x\n\nretry:\n\nretry: 0300\n\nretry: -1\n\nretry: 1.5\n\n',
    events: [message('a')],
    retries: [1500, 300],
    splitEverywhere: true,
  },
  {
    name: 'retry without colon, or with a longer name, applies nothing',
    input: 'retry\n\nretryx: 5\n\nretry: 7\ndata: a\n\n',
    events: [message('a')],
    retries: [7],
  },
  // Byte order mark
  {
    name: 'a byte order mark at the start is dropped',
    input: '\uFEFFdata: a\n\n',
    events: [message('a')],
    splitEverywhere: true,
  },
  {
    name: 'a byte order mark in its own chunks before the rest',
    input: [[0xef], [0xbb], [0xbf], 'data: a\n\n'],
    events: [message('a')],
  },
  {
    name: 'only one byte order mark is dropped: a second one starts the field name',
    input: '\uFEFF\uFEFFdata: a\n\ndata: b\n\n',
    events: [message('b')],
    splitEverywhere: true,
  },
  {
    name: 'a byte order mark later in the stream is not dropped',
    input: 'data: a\n\n\uFEFFdata: b\n\n',
    events: [message('a')],
  },
  {
    name: 'a byte order mark that starts a value is kept',
    input: 'data: \uFEFFa\n\n',
    events: [message('\uFEFFa')],
  },
  // Text
  {
    name: 'UTF-8 split anywhere',
    input: 'data: é東👋🏽\n\n',
    events: [message('é東👋🏽')],
    splitEverywhere: true,
  },
  {
    name: 'an invalid byte becomes U+FFFD',
    input: ['data: a', [0xff], 'b\n\n'],
    events: [message('a\uFFFDb')],
  },
  // The end of the stream
  {
    name: 'an event without its blank line when the stream ends is not dispatched',
    input: 'data: a\n\ndata: b\n',
    events: [message('a')],
  },
  {
    name: 'nor one whose last line has no line end',
    input: 'data: a\n\ndata: b',
    events: [message('a')],
  },
  {
    name: 'blank lines alone dispatch nothing',
    input: '\n\n\r\n\r\r\n',
    events: [],
  },
];
