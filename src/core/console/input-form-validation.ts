import { buildRunInput, isEmptyValue, type FormField } from './input-form.js';

/** The values of an input form, by field name, as its controls hold them. */
export type AgentInputFormValues = Record<string, unknown>;

/** The outcome of {@link validateInputForm}. */
export type InputFormValidation =
  | {
      success: true;
      /** Every field present (optional empty ones as `""`), numbers parsed, ready to send. */
      input: Record<string, unknown>;
    }
  | {
      success: false;
      /** One message per invalid field, by field name, in the order of the fields. */
      errors: Record<string, string>;
    };

const numberPattern = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
/** The shape of a `datetime-local` value (digits in place; `localDateTimePattern` checks them). */
const dateTimeLocalShape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What `<input type="datetime-local">` gives: hours 00–23, seconds and their fraction optional. */
const localDateTimePattern = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?$/;

type FieldCheck = { valid: true; value: unknown } | { valid: false; message: string };

/**
 * Validates form values against the fields (required, number parsing, enum membership, the
 * schema's `minLength`/`maxLength`/`minimum`/`maximum`, calendar dates, local date-times), one
 * message per field, and on success returns the run's `input`: every field present (see
 * `buildRunInput`).
 *
 * @example
 * const result = validateInputForm(fields, { topic: 'zod', depth: '3' });
 * if (result.success) start({ agentId, input: result.input, fields });
 */
export function validateInputForm(
  fields: readonly FormField[],
  values: Readonly<AgentInputFormValues>,
): InputFormValidation {
  // A field's name is the wire's: own keys only, read and written (`__proto__` is a field too).
  const output: [string, unknown][] = [];
  const errors: [string, string][] = [];
  for (const field of fields) {
    const result = checkField(
      field,
      Object.hasOwn(values, field.name) ? values[field.name] : undefined,
    );
    if (result.valid) output.push([field.name, result.value]);
    else errors.push([field.name, result.message]);
  }
  if (errors.length > 0) return { success: false, errors: Object.fromEntries(errors) };
  return { success: true, input: buildRunInput(fields, Object.fromEntries(output)) };
}

/** A date-time as `<input type="datetime-local">` shows it (local time, no zone). */
export function toDateTimeLocal(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  if (dateTimeLocalShape.test(value)) return value;
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const date = new Date(time);
  const pad = (part: number) => String(part).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Whether a boolean field's value is on. */
export function isChecked(value: unknown): boolean {
  return value === true || value === 'true';
}

/** The index of `value` among an enum field's options, or -1. */
export function optionIndex(field: FormField, value: unknown): number {
  return field.options.findIndex((option) => option === value || String(option) === String(value));
}

/** An empty value is missing (required, or sent as `""`); the rest are checked by kind. */
function checkField(field: FormField, value: unknown): FieldCheck {
  if (field.kind === 'boolean') return valid(isChecked(value));
  if (isEmptyValue(value)) {
    return field.required ? invalid(`${field.label} is required.`) : valid(undefined);
  }
  switch (field.kind) {
    case 'number':
    case 'integer':
      return checkNumber(field, typeof value === 'number' ? String(value) : String(value).trim());
    case 'enum':
      if (field.options.length > 0) return checkOption(field, value);
      // A hand-built enum without options takes text, and text only (as zod's string check did).
      return typeof value === 'string'
        ? checkText(field, value)
        : invalid(`${field.label} is required.`);
    case 'date':
      return checkDate(field, String(value));
    case 'date-time':
      return checkDateTime(field, toDateTimeLocal(String(value)));
    default:
      return checkText(field, String(value));
  }
}

function checkNumber(field: FormField, text: string): FieldCheck {
  const { label, schema } = field;
  if (!numberPattern.test(text)) return invalid(`${label} must be a number.`);
  const number = Number(text);
  // Digits past the largest double: the message zod gave, kept.
  if (!Number.isFinite(number)) return invalid('Invalid input');
  if (field.kind === 'integer' && !Number.isInteger(number)) {
    return invalid(`${label} must be a whole number.`);
  }
  const { minimum, maximum } = schema;
  if (typeof minimum === 'number' && number < minimum) {
    return invalid(`${label} must be at least ${minimum}.`);
  }
  if (typeof maximum === 'number' && number > maximum) {
    return invalid(`${label} must be at most ${maximum}.`);
  }
  return valid(number);
}

/** The option itself, or the one whose text matches (a control holds `"2"` for the option `2`). */
function checkOption(field: FormField, value: unknown): FieldCheck {
  const index = optionIndex(field, value);
  if (index === -1) {
    return invalid(`${field.label} must be one of: ${field.options.map(String).join(', ')}.`);
  }
  return valid(field.options[index]);
}

/** Lengths in code points, as JSON Schema counts them: an emoji is one character. */
function checkText(field: FormField, text: string): FieldCheck {
  const { label, schema } = field;
  const { minLength, maxLength } = schema;
  const length = [...text].length;
  if (typeof minLength === 'number' && length < minLength) {
    return invalid(`${label} needs at least ${minLength} characters.`);
  }
  if (typeof maxLength === 'number' && length > maxLength) {
    return invalid(`${label} takes at most ${maxLength} characters.`);
  }
  return valid(text);
}

function checkDate(field: FormField, text: string): FieldCheck {
  return isCalendarDate(text)
    ? valid(text)
    : invalid(`${field.label} must be a date (year-month-day).`);
}

function checkDateTime(field: FormField, local: string): FieldCheck {
  if (!localDateTimePattern.test(local) || !isCalendarDate(local.slice(0, 10))) {
    return invalid(`${field.label} must be a date and time.`);
  }
  // JSON Schema's date-time carries a zone: the local time the person chose, sent in UTC.
  return valid(new Date(local).toISOString());
}

/** `year-month-day` naming a day of the Gregorian calendar (2024-02-29 does, 2023-02-29 does not). */
function isCalendarDate(text: string): boolean {
  const match = datePattern.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const leapYear = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leapYear ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days;
}

function valid(value: unknown): FieldCheck {
  return { valid: true, value };
}

function invalid(message: string): FieldCheck {
  return { valid: false, message };
}
