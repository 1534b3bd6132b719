import { describe, expect, it } from 'vitest';
import {
  AgentInputError,
  assertCompleteInput,
  buildRunInput,
  formFieldsFromSchema,
  validateInputForm,
} from 'agent-console-kit';
import { findMissingFields } from '../../../src/core/console/input-form.js';

const inputSchema = {
  type: 'object',
  properties: {
    topic: { type: 'string', title: 'Topic', description: 'What to research' },
    notes: { type: 'string', format: 'textarea' },
    summary: { type: 'string', maxLength: 2000 },
    budget: { type: 'number', default: 10 },
    depth: { type: 'integer' },
    urgent: { type: 'boolean' },
    tone: { type: 'string', enum: ['formal', 'casual'] },
    due: { type: 'string', format: 'date' },
    remindAt: { type: ['string', 'null'], format: 'date-time' },
    shape: { type: 'object' },
    mystery: 'not a schema',
  },
  required: ['topic', 'depth'],
};

describe('given an input_schema with every kind of field', () => {
  const fields = formFieldsFromSchema(inputSchema);

  it('derives one field per property, in order, with its kind', () => {
    expect(fields.map((field) => [field.name, field.kind])).toEqual([
      ['topic', 'text'],
      ['notes', 'textarea'],
      ['summary', 'textarea'],
      ['budget', 'number'],
      ['depth', 'integer'],
      ['urgent', 'boolean'],
      ['tone', 'enum'],
      ['due', 'date'],
      ['remindAt', 'date-time'],
      ['shape', 'text'],
      ['mystery', 'text'],
    ]);
  });

  it('takes the label from the title, else the key humanized, and keeps description, default and options', () => {
    expect(fields[0]).toMatchObject({
      label: 'Topic',
      description: 'What to research',
      required: true,
    });
    expect(fields[1]).toMatchObject({ label: 'Notes', description: undefined, required: false });
    expect(fields[3]?.defaultValue).toBe(10);
    expect(fields[6]?.options).toEqual(['formal', 'casual']);
  });
});

describe('given keys without a title', () => {
  it.each([
    ['depth', 'Depth'],
    ['dueDate', 'Due date'],
    ['due_date', 'Due date'],
    ['max-results', 'Max results'],
    ['apiURL', 'Api URL'],
  ])('labels %s as "%s"', (key, label) => {
    expect(formFieldsFromSchema({ properties: { [key]: { type: 'string' } } })[0]?.label).toBe(
      label,
    );
  });
});

describe('given a chat agent or a malformed schema', () => {
  it.each([{}, null, 'text', { properties: [] }, { type: 'object' }])(
    'derives no field from %j',
    (schema) => {
      expect(formFieldsFromSchema(schema)).toEqual([]);
    },
  );
});

describe('given form values', () => {
  const fields = formFieldsFromSchema(inputSchema);

  it('builds an input with every field, optional empty ones as ""', () => {
    const input = buildRunInput(fields, { topic: 'zod', depth: 2, urgent: false, extra: 'x' });

    expect(Object.keys(input)).toEqual(fields.map((field) => field.name));
    expect(input).toMatchObject({ topic: 'zod', depth: 2, urgent: false, notes: '', due: '' });
    expect(input).not.toHaveProperty('extra');
    expect(findMissingFields(fields, input)).toEqual([]);
  });

  it('lists the fields an input lacks, and required ones left empty', () => {
    expect(findMissingFields(fields, { topic: '  ', notes: '' })).toEqual([
      'topic',
      'summary',
      'budget',
      'depth',
      'urgent',
      'tone',
      'due',
      'remindAt',
      'shape',
      'mystery',
    ]);
  });

  it('refuses an incomplete input with an AgentInputError that names the fields', () => {
    const complete = buildRunInput(fields, { topic: 'zod', depth: 1 });
    const withoutNotes = { ...complete };
    delete withoutNotes['notes'];

    expect(() => assertCompleteInput(fields, complete)).not.toThrow();
    expect(() => assertCompleteInput(fields, withoutNotes)).toThrow(AgentInputError);
    try {
      assertCompleteInput(fields, withoutNotes);
    } catch (error) {
      expect((error as AgentInputError).missingFields).toEqual(['notes']);
      expect((error as Error).message).toContain('notes');
    }
  });
});

describe('given form values validated without a form on screen', () => {
  const fields = formFieldsFromSchema(inputSchema);

  it('names each invalid field in the order of the fields', () => {
    const result = validateInputForm(fields, { depth: '2.5', tone: 'shouty' });

    expect(result).toEqual({
      success: false,
      errors: {
        topic: 'Topic is required.',
        // Untitled fields are named by humanizeKey (issue 9): 'depth' reads as 'Depth'.
        depth: 'Depth must be a whole number.',
        tone: 'Tone must be one of: formal, casual.',
      },
    });
  });

  it('returns the run input with every field present and numbers parsed', () => {
    const result = validateInputForm(fields, { topic: 'bees', depth: ' 3 ', budget: 12.5 });

    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.input).toMatchObject({ topic: 'bees', depth: 3, budget: 12.5, notes: '' });
    expect(Object.keys(result.input)).toEqual(fields.map((field) => field.name));
  });
});
