import * as z from 'zod/mini';
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
const dateTimeLocalPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * Validates form values against the fields (required, number parsing, enum membership, the
 * schema's `minLength`/`maxLength`/`minimum`/`maximum`) with zod/mini schemas built from the fields,
 * and on success returns the run's `input`: every field present (see `buildRunInput`).
 *
 * @example
 * const result = validateInputForm(fields, { topic: 'zod', depth: '3' });
 * if (result.success) start({ agentId, input: result.input, fields });
 */
export function validateInputForm(
  fields: readonly FormField[],
  values: Readonly<AgentInputFormValues>,
): InputFormValidation {
  const output: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const result = fieldSchema(field).safeParse(normalizeValue(field, values[field.name]));
    if (result.success) {
      output[field.name] = result.data;
    } else {
      errors[field.name] = result.error.issues[0]?.message ?? `${field.label} is not valid.`;
    }
  }
  if (Object.keys(errors).length > 0) return { success: false, errors };
  return { success: true, input: buildRunInput(fields, output) };
}

/** A date-time as `<input type="datetime-local">` shows it (local time, no zone). */
export function toDateTimeLocal(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  if (dateTimeLocalPattern.test(value)) return value;
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

/** Empty values become undefined (so `required` and `optional` decide); the rest become what the schema expects. */
function normalizeValue(field: FormField, value: unknown): unknown {
  if (field.kind === 'boolean') return isChecked(value);
  if (isEmptyValue(value)) return undefined;
  switch (field.kind) {
    case 'enum': {
      const index = optionIndex(field, value);
      return index === -1 ? value : field.options[index];
    }
    case 'number':
    case 'integer':
      return typeof value === 'number' ? String(value) : String(value).trim();
    case 'date-time':
      return toDateTimeLocal(String(value));
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

function fieldSchema(field: FormField): z.ZodMiniType {
  const { label } = field;
  const required = `${label} is required.`;
  const orRequired = (message: string) => ({
    error: (issue: { input?: unknown }) => (issue.input === undefined ? required : message),
  });
  let schema: z.ZodMiniType;
  switch (field.kind) {
    case 'boolean':
      return z.boolean();
    case 'number':
    case 'integer': {
      const numberChecks = [
        ...(field.kind === 'integer'
          ? [z.refine<number>(Number.isInteger, `${label} must be a whole number.`)]
          : []),
        ...(typeof field.schema['minimum'] === 'number'
          ? [
              z.gte(
                field.schema['minimum'],
                `${label} must be at least ${field.schema['minimum']}.`,
              ),
            ]
          : []),
        ...(typeof field.schema['maximum'] === 'number'
          ? [z.lte(field.schema['maximum'], `${label} must be at most ${field.schema['maximum']}.`)]
          : []),
      ];
      schema = z.pipe(
        z.pipe(
          z.string({ error: required }).check(z.regex(numberPattern, `${label} must be a number.`)),
          z.transform(Number),
        ),
        z.number().check(...numberChecks),
      );
      break;
    }
    case 'enum':
      schema =
        field.options.length > 0
          ? z.literal(
              field.options,
              orRequired(`${label} must be one of: ${field.options.map(String).join(', ')}.`),
            )
          : textSchema(field, required);
      break;
    case 'date':
      schema = z.iso.date(orRequired(`${label} must be a date (year-month-day).`));
      break;
    case 'date-time':
      schema = z.pipe(
        z.iso.datetime({ local: true, ...orRequired(`${label} must be a date and time.`) }),
        // JSON Schema's date-time carries a zone: the local time the person chose, sent in UTC.
        z.transform((local: string) => new Date(local).toISOString()),
      );
      break;
    default:
      schema = textSchema(field, required);
  }
  return field.required ? schema : z.optional(schema);
}

function textSchema(field: FormField, required: string): z.ZodMiniType {
  const { label, schema } = field;
  const checks = [
    ...(typeof schema['minLength'] === 'number'
      ? [
          z.minLength(
            schema['minLength'],
            `${label} needs at least ${schema['minLength']} characters.`,
          ),
        ]
      : []),
    ...(typeof schema['maxLength'] === 'number'
      ? [
          z.maxLength(
            schema['maxLength'],
            `${label} takes at most ${schema['maxLength']} characters.`,
          ),
        ]
      : []),
  ];
  return z.string({ error: required }).check(...checks);
}
