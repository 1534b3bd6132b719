import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { formFieldsFromSchema, validateInputForm, type FormField } from 'agent-console-kit';

/** One field named `value`, built from its JSON Schema as a form gets it. */
function fieldOf(schema: Record<string, unknown>, required = false): FormField {
  const [field] = formFieldsFromSchema({
    properties: { value: schema },
    required: required ? ['value'] : [],
  });
  if (field === undefined) throw new Error('no field');
  return field;
}

/** What `<input type="datetime-local">` shows, sent in UTC (the machine's zone decides). */
function sentInUtc(local: string): string {
  return new Date(local).toISOString();
}

type Expected = { input: unknown } | { error: string };

const name = fieldOf({ type: 'string', title: 'Name' });
const requiredName = fieldOf({ type: 'string', title: 'Name' }, true);
const code = fieldOf({ type: 'string', title: 'Code', minLength: 2, maxLength: 4 });
const crossed = fieldOf({ type: 'string', title: 'Crossed', minLength: 5, maxLength: 2 });
const notes = fieldOf({ type: 'string', title: 'Notes', maxLength: 300 });
const budget = fieldOf({ type: 'number', title: 'Budget', minimum: 0.5, maximum: 10 });
const amount = fieldOf({ type: 'number', title: 'Amount' });
const depth = fieldOf({ type: 'integer', title: 'Depth', minimum: 1, maximum: 5 }, true);
const count = fieldOf({ type: 'integer', title: 'Count' });
const tone = fieldOf({ type: 'string', title: 'Tone', enum: ['formal', 'casual'] }, true);
const level = fieldOf({ type: 'integer', title: 'Level', enum: [1, 2, 10] });
const mixed = fieldOf({ title: 'Mixed', enum: [true, 'no', 3] });
const urgent = fieldOf({ type: 'boolean', title: 'Urgent' });
const requiredUrgent = fieldOf({ type: 'boolean', title: 'Urgent' }, true);
const due = fieldOf({ type: 'string', format: 'date', title: 'Due' });
const requiredDue = fieldOf({ type: 'string', format: 'date', title: 'Due' }, true);
const remindAt = fieldOf({ type: 'string', format: 'date-time', title: 'Remind at' });
const requiredRemindAt = fieldOf({ type: 'string', format: 'date-time', title: 'Remind at' }, true);
/** An enum field without options: only a hand-built field has one. */
const bareEnum: FormField = { ...name, kind: 'enum', label: 'Bare' };

// Each row: the field, the value as the form holds it, and what validateInputForm answers for it
// alone (`input` is the run input's `value`). Pinned on the zod-built validation it replaced.
const table: [string, FormField, unknown, Expected][] = [
  // Text: empty and whitespace are "no value"; text is kept as typed (not trimmed).
  ['text, no value', name, undefined, { input: '' }],
  ['text, null', name, null, { input: '' }],
  ['text, empty', name, '', { input: '' }],
  ['text, whitespace', name, '   ', { input: '' }],
  ['text, padded', name, ' a ', { input: ' a ' }],
  ['text, a number', name, 5, { input: '5' }],
  ['text, a boolean', name, true, { input: 'true' }],
  ['text, an object', name, {}, { input: '[object Object]' }],
  ['required text, no value', requiredName, undefined, { error: 'Name is required.' }],
  ['required text, empty', requiredName, '', { error: 'Name is required.' }],
  ['required text, whitespace', requiredName, ' \n\t', { error: 'Name is required.' }],
  // An empty array is not an empty value, and it reads as "".
  ['required text, empty array', requiredName, [], { input: '' }],
  ['required text, a value', requiredName, 'Ada', { input: 'Ada' }],
  ['text, one under minLength', code, 'a', { error: 'Code needs at least 2 characters.' }],
  ['text, at minLength', code, 'ab', { input: 'ab' }],
  ['text, at maxLength', code, 'abcd', { input: 'abcd' }],
  ['text, one over maxLength', code, 'abcde', { error: 'Code takes at most 4 characters.' }],
  ['text, spaces count toward the length', code, ' a ', { input: ' a ' }],
  // Lengths count code points, as JSON Schema does (and zod's checks did): an emoji is one.
  ['text, one emoji', code, '😀', { error: 'Code needs at least 2 characters.' }],
  ['text, two emoji', code, '😀😀', { input: '😀😀' }],
  ['text, four emoji', code, '😀😀😀😀', { input: '😀😀😀😀' }],
  ['text, five emoji', code, '😀😀😀😀😀', { error: 'Code takes at most 4 characters.' }],
  ['text, lone surrogates count one each', code, '\uD800\uD800', { input: '\uD800\uD800' }],
  [
    'text, minLength over maxLength',
    crossed,
    'abc',
    { error: 'Crossed needs at least 5 characters.' },
  ],
  ['text, empty with a minLength', code, '', { input: '' }],
  [
    'textarea, over maxLength',
    notes,
    'x'.repeat(301),
    { error: 'Notes takes at most 300 characters.' },
  ],
  ['textarea, at maxLength', notes, 'x'.repeat(300), { input: 'x'.repeat(300) }],

  // Numbers: the number pattern, then Number; bounds inclusive.
  ['number, no value', budget, undefined, { input: '' }],
  ['number, empty', budget, '', { input: '' }],
  ['number, whitespace', budget, '  ', { input: '' }],
  ['number, at minimum', budget, '0.5', { input: 0.5 }],
  ['number, under minimum', budget, '0.49', { error: 'Budget must be at least 0.5.' }],
  ['number, at maximum', budget, '10', { input: 10 }],
  ['number, over maximum', budget, '10.01', { error: 'Budget must be at most 10.' }],
  ['number, exponent', budget, '1e1', { input: 10 }],
  ['number, exponent over maximum', budget, '1e3', { error: 'Budget must be at most 10.' }],
  ['number, leading dot', budget, '.5', { input: 0.5 }],
  ['number, plus sign', budget, '+1', { input: 1 }],
  ['number, trailing dot', budget, '1.', { input: 1 }],
  ['number, padded', budget, ' 3 ', { input: 3 }],
  ['number, as a number', budget, 2.5, { input: 2.5 }],
  ['number, a number over maximum', budget, 12.5, { error: 'Budget must be at most 10.' }],
  ['number, words', budget, 'abc', { error: 'Budget must be a number.' }],
  ['number, decimal comma', budget, '1,5', { error: 'Budget must be a number.' }],
  ['number, hexadecimal', budget, '0x10', { error: 'Budget must be a number.' }],
  ['number, the word Infinity', budget, 'Infinity', { error: 'Budget must be a number.' }],
  ['number, NaN as a number', budget, Number.NaN, { error: 'Budget must be a number.' }],
  ['number, Infinity as a number', budget, Infinity, { error: 'Budget must be a number.' }],
  ['number, a boolean', budget, true, { error: 'Budget must be a number.' }],
  ['number, an empty array', budget, [], { error: 'Budget must be a number.' }],
  ['number, an array of one', budget, ['3'], { input: 3 }],
  ['number, two signs', budget, '+-1', { error: 'Budget must be a number.' }],
  // A number too large to be finite got zod's own message (zod/mini without a locale).
  ['number, overflows to Infinity', budget, '1e400', { error: 'Invalid input' }],
  ['number, capital exponent', amount, '1E3', { input: 1000 }],
  ['number, underflows to zero', amount, '1e-400', { input: 0 }],
  ['number, large as a number', amount, 1e21, { input: 1e21 }],
  ['number, negative', amount, '-2.5', { input: -2.5 }],

  ['integer, no value', depth, undefined, { error: 'Depth is required.' }],
  ['integer, empty', depth, '', { error: 'Depth is required.' }],
  ['integer, whitespace', depth, '   ', { error: 'Depth is required.' }],
  ['integer, at minimum', depth, '1', { input: 1 }],
  ['integer, under minimum', depth, '0', { error: 'Depth must be at least 1.' }],
  ['integer, at maximum', depth, '5', { input: 5 }],
  ['integer, over maximum', depth, '6', { error: 'Depth must be at most 5.' }],
  ['integer, padded', depth, ' 3 ', { input: 3 }],
  ['integer, decimal', depth, '2.5', { error: 'Depth must be a whole number.' }],
  // The whole-number message comes before the bounds'.
  ['integer, decimal under minimum', depth, '0.5', { error: 'Depth must be a whole number.' }],
  ['integer, decimal over maximum', depth, '5.5', { error: 'Depth must be a whole number.' }],
  ['integer, ".0" is whole', depth, '1.0', { input: 1 }],
  ['integer, exponent', depth, '3e0', { input: 3 }],
  ['integer, as a number', depth, 3, { input: 3 }],
  ['integer, a decimal number', depth, 2.5, { error: 'Depth must be a whole number.' }],
  ['integer, words', depth, 'three', { error: 'Depth must be a number.' }],
  ['integer, overflows to Infinity', depth, '1e400', { error: 'Invalid input' }],
  ['integer, 1e3', count, '1e3', { input: 1000 }],
  ['integer, small exponent', count, '1e-7', { error: 'Count must be a whole number.' }],
  ['integer, past 2^53', count, '9007199254740993', { input: 9007199254740992 }],
  ['integer, leading dot', count, '.5', { error: 'Count must be a whole number.' }],
  ['integer, plus sign', count, '+1', { input: 1 }],

  // Enums: the value itself, or one whose String matches an option's, sent as the option.
  ['enum, an option', tone, 'formal', { input: 'formal' }],
  ['enum, another option', tone, 'casual', { input: 'casual' }],
  ['enum, no value', tone, undefined, { error: 'Tone is required.' }],
  ['enum, empty', tone, '', { error: 'Tone is required.' }],
  ['enum, whitespace', tone, '  ', { error: 'Tone is required.' }],
  ['enum, other case', tone, 'Formal', { error: 'Tone must be one of: formal, casual.' }],
  ['enum, padded', tone, ' formal', { error: 'Tone must be one of: formal, casual.' }],
  ['enum, not an option', tone, 'shouty', { error: 'Tone must be one of: formal, casual.' }],
  ['number enum, by its text', level, '2', { input: 2 }],
  ['number enum, as a number', level, 10, { input: 10 }],
  ['number enum, leading zero', level, '02', { error: 'Level must be one of: 1, 2, 10.' }],
  ['number enum, not an option', level, 3, { error: 'Level must be one of: 1, 2, 10.' }],
  ['number enum, empty', level, '', { input: '' }],
  ['mixed enum, "true"', mixed, 'true', { input: true }],
  ['mixed enum, true', mixed, true, { input: true }],
  ['mixed enum, a string', mixed, 'no', { input: 'no' }],
  ['mixed enum, "3"', mixed, '3', { input: 3 }],
  ['mixed enum, false', mixed, false, { error: 'Mixed must be one of: true, no, 3.' }],
  ['enum without options, text', bareEnum, 'anything', { input: 'anything' }],
  ['enum without options, a number', bareEnum, 5, { error: 'Bare is required.' }],

  // Booleans: checked or not, never missing.
  ['boolean, no value', urgent, undefined, { input: false }],
  ['boolean, true', urgent, true, { input: true }],
  ['boolean, "true"', urgent, 'true', { input: true }],
  ['boolean, "false"', urgent, 'false', { input: false }],
  ['boolean, "on"', urgent, 'on', { input: false }],
  ['boolean, 1', urgent, 1, { input: false }],
  ['required boolean, unchecked', requiredUrgent, undefined, { input: false }],
  ['required boolean, false', requiredUrgent, false, { input: false }],

  // Dates: year-month-day, real calendar dates.
  ['date, no value', due, undefined, { input: '' }],
  ['date, whitespace', due, '  ', { input: '' }],
  ['required date, empty', requiredDue, '', { error: 'Due is required.' }],
  ['date, a day', due, '2026-03-04', { input: '2026-03-04' }],
  ['date, leap day', due, '2024-02-29', { input: '2024-02-29' }],
  ['date, no leap day', due, '2023-02-29', { error: 'Due must be a date (year-month-day).' }],
  [
    'date, no leap day in 1900',
    due,
    '1900-02-29',
    { error: 'Due must be a date (year-month-day).' },
  ],
  ['date, leap day in 2000', due, '2000-02-29', { input: '2000-02-29' }],
  ['date, leap day in year 0', due, '0000-02-29', { input: '0000-02-29' }],
  ['date, month 13', due, '2024-13-01', { error: 'Due must be a date (year-month-day).' }],
  ['date, month 0', due, '2024-00-10', { error: 'Due must be a date (year-month-day).' }],
  ['date, day 0', due, '2024-01-00', { error: 'Due must be a date (year-month-day).' }],
  ['date, April 31', due, '2024-04-31', { error: 'Due must be a date (year-month-day).' }],
  ['date, April 30', due, '2024-04-30', { input: '2024-04-30' }],
  ['date, December 31', due, '2024-12-31', { input: '2024-12-31' }],
  ['date, January 32', due, '2024-01-32', { error: 'Due must be a date (year-month-day).' }],
  ['date, one-digit parts', due, '2024-1-5', { error: 'Due must be a date (year-month-day).' }],
  ['date, two-digit year', due, '24-01-05', { error: 'Due must be a date (year-month-day).' }],
  ['date, five-digit year', due, '12024-01-05', { error: 'Due must be a date (year-month-day).' }],
  ['date, no dashes', due, '20240105', { error: 'Due must be a date (year-month-day).' }],
  ['date, with a time', due, '2024-01-05T00:00', { error: 'Due must be a date (year-month-day).' }],
  ['date, padded', due, ' 2024-01-05', { error: 'Due must be a date (year-month-day).' }],
  ['date, day first', due, '05/01/2024', { error: 'Due must be a date (year-month-day).' }],
  [
    'date, Arabic-Indic digits',
    due,
    '٢٠٢٤-٠١-٠٥',
    { error: 'Due must be a date (year-month-day).' },
  ],

  // Date-times: what a datetime-local control gives, sent in UTC.
  ['date-time, no value', remindAt, undefined, { input: '' }],
  ['date-time, whitespace', remindAt, ' ', { input: '' }],
  ['required date-time, empty', requiredRemindAt, '', { error: 'Remind at is required.' }],
  ['date-time, minutes', remindAt, '2026-03-04T05:06', { input: sentInUtc('2026-03-04T05:06') }],
  [
    'date-time, seconds',
    remindAt,
    '2026-03-04T05:06:07',
    { input: sentInUtc('2026-03-04T05:06:07') },
  ],
  [
    'date-time, milliseconds',
    remindAt,
    '2026-03-04T05:06:07.891',
    { input: sentInUtc('2026-03-04T05:06:07.891') },
  ],
  [
    'date-time, a longer fraction',
    remindAt,
    '2026-03-04T05:06:07.8912345',
    { input: sentInUtc('2026-03-04T05:06:07.891') },
  ],
  ['date-time, leap day', remindAt, '2024-02-29T23:59', { input: sentInUtc('2024-02-29T23:59') }],
  [
    'date-time, no leap day',
    remindAt,
    '2026-02-29T05:06',
    { error: 'Remind at must be a date and time.' },
  ],
  [
    'date-time, month 13',
    remindAt,
    '2024-13-01T05:06',
    { error: 'Remind at must be a date and time.' },
  ],
  ['date-time, midnight', remindAt, '2026-03-04T00:00', { input: sentInUtc('2026-03-04T00:00') }],
  [
    'date-time, hour 24',
    remindAt,
    '2026-03-04T24:00',
    { error: 'Remind at must be a date and time.' },
  ],
  [
    'date-time, minute 60',
    remindAt,
    '2026-03-04T05:60',
    { error: 'Remind at must be a date and time.' },
  ],
  [
    'date-time, second 60',
    remindAt,
    '2026-03-04T05:06:60',
    { error: 'Remind at must be a date and time.' },
  ],
  ['date-time, year 999', remindAt, '0999-01-01T00:00', { input: sentInUtc('0999-01-01T00:00') }],
  // A value with a zone is shown as the local minute it names: its seconds are dropped.
  ['date-time, UTC', remindAt, '2026-03-04T05:06:07Z', { input: '2026-03-04T05:06:00.000Z' }],
  [
    'date-time, UTC without seconds',
    remindAt,
    '2026-03-04T05:06Z',
    { input: '2026-03-04T05:06:00.000Z' },
  ],
  [
    'date-time, an offset',
    remindAt,
    '2026-03-04T05:06:07+02:00',
    { input: '2026-03-04T03:06:00.000Z' },
  ],
  [
    'date-time, a date alone (UTC midnight)',
    remindAt,
    '2026-03-04',
    { input: '2026-03-04T00:00:00.000Z' },
  ],
  [
    'date-time, a year past 9999',
    remindAt,
    '+012345-01-01T00:00:00Z',
    { error: 'Remind at must be a date and time.' },
  ],
  ['date-time, words', remindAt, 'next tuesday', { error: 'Remind at must be a date and time.' }],
  // What Date.parse makes of it, as before: 5 reads as May 2001, local time.
  ['date-time, a number', remindAt, 5, { input: sentInUtc('2001-05-01T00:00') }],
];

describe('given one field and a value, as a person types it', () => {
  it.each(table)('%s', (_case, field, value, expected) => {
    const result = validateInputForm([field], { value });

    if ('error' in expected) {
      expect(result).toEqual({ success: false, errors: { value: expected.error } });
    } else {
      expect(result).toEqual({ success: true, input: { value: expected.input } });
    }
  });

  it('sends "-0" as negative zero, as Number reads it', () => {
    const result = validateInputForm([amount], { value: '-0' });

    expect(result.success && Object.is(result.input['value'], -0)).toBe(true);
  });
});

describe('given several fields', () => {
  const fields = [
    { ...name, name: 'name' },
    { ...depth, name: 'depth' },
    { ...tone, name: 'tone' },
    { ...urgent, name: 'urgent' },
    { ...due, name: 'due' },
    { ...budget, name: 'budget' },
  ];

  it('names each invalid field once, with its first message, in the order of the fields', () => {
    const result = validateInputForm(fields, {
      budget: '11',
      due: '2023-02-29',
      tone: 'loud',
      depth: '0.5',
      extra: 'x',
    });

    expect(result.success).toBe(false);
    if (result.success) return;
    expect(Object.entries(result.errors)).toEqual([
      ['depth', 'Depth must be a whole number.'],
      ['tone', 'Tone must be one of: formal, casual.'],
      ['due', 'Due must be a date (year-month-day).'],
      ['budget', 'Budget must be at most 10.'],
    ]);
  });

  it('returns every field, in the order of the fields, and nothing else', () => {
    const result = validateInputForm(fields, {
      budget: '1e0',
      tone: 'casual',
      depth: 2,
      extra: 'x',
    });

    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(Object.entries(result.input)).toEqual([
      ['name', ''],
      ['depth', 2],
      ['tone', 'casual'],
      ['urgent', false],
      ['due', ''],
      ['budget', 1],
    ]);
  });
});

// zod's own ISO checks, the ones the form used, as the reference over a grid of calendar corners
// (values a datetime-local control could hold, which the form checks as they are).
describe('given dates and local date-times around every calendar edge', () => {
  const years = ['0000', '0004', '0100', '1900', '2000', '2023', '2024', '2100', '2400', '9999'];
  const months = Array.from({ length: 14 }, (_, month) => String(month).padStart(2, '0'));
  const days = Array.from({ length: 33 }, (_, day) => String(day).padStart(2, '0'));
  const dates = years.flatMap((year) =>
    months.flatMap((month) => days.map((day) => `${year}-${month}-${day}`)),
  );

  it('accepts a date exactly when zod’s z.iso.date does', () => {
    const isoDate = z.iso.date();
    const disagreements = dates.filter(
      (date) =>
        validateInputForm([due], { value: date }).success !== isoDate.safeParse(date).success,
    );

    expect(disagreements).toEqual([]);
    expect(dates.filter((date) => isoDate.safeParse(date).success)).toHaveLength(10 * 365 + 5);
  });

  it('accepts a local date-time exactly when zod’s z.iso.datetime({ local: true }) does', () => {
    const isoDateTime = z.iso.datetime({ local: true });
    const times = [
      '00:00',
      '23:59',
      '24:00',
      '19:60',
      '09:30:00',
      '09:30:59',
      '09:30:60',
      '09:30:00.5',
      '09:30:00.123456789',
    ];
    const dateTimes = dates
      .filter((date) => date.endsWith('-28') || date.endsWith('-29') || date.endsWith('-31'))
      .flatMap((date) => times.map((time) => `${date}T${time}`));
    const disagreements = dateTimes.filter(
      (dateTime) =>
        validateInputForm([remindAt], { value: dateTime }).success !==
        isoDateTime.safeParse(dateTime).success,
    );

    expect(disagreements).toEqual([]);
  });
});
