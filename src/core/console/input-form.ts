import { AgentInputError } from '../wire/errors.js';

/** The kinds of form control a field of an agent's `input_schema` becomes. */
export type FormFieldKind =
  'text' | 'textarea' | 'number' | 'integer' | 'boolean' | 'enum' | 'date' | 'date-time';

/** One field of an agent's input form, derived from its `input_schema`. */
export interface FormField {
  /** The property key, as sent in `input`. */
  name: string;
  kind: FormFieldKind;
  /** The schema's `title`, else the key humanized (`dueDate` and `due_date` → "Due date"). */
  label: string;
  description: string | undefined;
  required: boolean;
  /** The allowed values of an `enum` field. */
  options: readonly (string | number | boolean)[];
  /** The schema's `default`, if any. */
  defaultValue: unknown;
  /** The property's JSON Schema as received, kept whole. */
  schema: Readonly<Record<string, unknown>>;
}

/** Long text when the schema says so: `format: 'textarea'` or a `maxLength` over 200. */
const longTextThreshold = 200;

/**
 * Turns an agent's `input_schema` (JSON Schema) into form fields, in the order of `properties`.
 * A chat-style agent's `{}` gives no field; a kind this library does not know falls back to text.
 *
 * @example
 * const fields = formFieldsFromSchema(schemas.input_schema);
 */
export function formFieldsFromSchema(inputSchema: unknown): FormField[] {
  if (!isRecord(inputSchema) || !isRecord(inputSchema['properties'])) return [];
  const required = new Set(
    Array.isArray(inputSchema['required'])
      ? inputSchema['required'].filter((key): key is string => typeof key === 'string')
      : [],
  );
  return Object.entries(inputSchema['properties']).map(([name, property]) => {
    const schema = isRecord(property) ? property : {};
    const options = Array.isArray(schema['enum'])
      ? schema['enum'].filter(
          (value): value is string | number | boolean =>
            typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
        )
      : [];
    return {
      name,
      kind: kindOf(schema, options.length > 0),
      label:
        typeof schema['title'] === 'string' && schema['title'] !== ''
          ? schema['title']
          : humanizeKey(name),
      description: typeof schema['description'] === 'string' ? schema['description'] : undefined,
      required: required.has(name),
      options,
      defaultValue: schema['default'],
      schema,
    };
  });
}

/**
 * A label from a property key: words split at `_`, `-` and lower-to-upper case changes, the first
 * capitalized, the rest lower case (`dueDate`, `due_date` → "Due date"; `depth` → "Depth").
 *
 * @example
 * humanizeKey('maxResults'); // "Max results"
 */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((word) => word !== '');
  if (words.length === 0) return key;
  const sentence = words
    .map((word) => (/^[A-Z0-9]+$/.test(word) && word.length > 1 ? word : word.toLowerCase()))
    .join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function kindOf(schema: Record<string, unknown>, hasOptions: boolean): FormFieldKind {
  if (hasOptions) return 'enum';
  const type = Array.isArray(schema['type'])
    ? schema['type'].find((entry) => entry !== 'null')
    : schema['type'];
  const format = schema['format'];
  switch (type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      if (format === 'date') return 'date';
      if (format === 'date-time') return 'date-time';
      if (
        format === 'textarea' ||
        (typeof schema['maxLength'] === 'number' && schema['maxLength'] > longTextThreshold)
      ) {
        return 'textarea';
      }
      return 'text';
  }
}

/** Whether a form value counts as empty (sent as `""` when the field is optional). */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * The `input` of a run started by a form: every field present, an optional field without a value
 * sent as `""` (the service answers 500 when a field is missing). Values not in `fields` are dropped.
 *
 * @example
 * start({ agentId, input: buildRunInput(fields, { topic: 'zod', depth: 3 }) });
 */
export function buildRunInput(
  fields: readonly FormField[],
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
      return [field.name, isEmptyValue(value) ? '' : value];
    }),
  );
}

/**
 * The fields an `input` cannot be sent without: those absent from it, and required ones left empty.
 */
export function findMissingFields(
  fields: readonly FormField[],
  input: Readonly<Record<string, unknown>> | undefined,
): string[] {
  return fields
    .filter((field) => {
      if (input === undefined || !Object.hasOwn(input, field.name)) return true;
      return field.required && isEmptyValue(input[field.name]);
    })
    .map((field) => field.name);
}

/** Throws an {@link AgentInputError} listing the fields `input` lacks; nothing is sent then. */
export function assertCompleteInput(
  fields: readonly FormField[],
  input: Readonly<Record<string, unknown>> | undefined,
): void {
  const missingFields = findMissingFields(fields, input);
  if (missingFields.length === 0) return;
  throw new AgentInputError(
    `The input lacks ${missingFields.length === 1 ? 'the field' : 'the fields'} ${missingFields.join(', ')}: nothing was sent.`,
    { missingFields },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
