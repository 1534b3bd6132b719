/**
 * A name from the wire (an input schema's field, an agent's capability) named like a property of
 * every object is data: it never reads a function or `Object.prototype` out of a table, and never
 * sets a prototype.
 */
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  AgentDetails,
  AgentInputForm,
  buildRunInput,
  formFieldsFromSchema,
  validateInputForm,
} from 'agent-console-kit';

const propertyNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** An input schema as the wire gives it (JSON.parse makes `__proto__` an own key). */
function schemaOf(required: boolean) {
  const properties = propertyNames.map((name) => `"${name}":{"type":"string"}`).join(',');
  return JSON.parse(
    `{"type":"object","properties":{${properties}},"required":${JSON.stringify(required ? propertyNames : [])}}`,
  ) as unknown;
}

describe('given form fields named like a property of every object', () => {
  it('refuses required ones left empty, each with its own message', () => {
    const fields = formFieldsFromSchema(schemaOf(true));
    expect(fields.map((field) => field.name)).toEqual(propertyNames);

    const result = validateInputForm(fields, {});

    expect(result.success).toBe(false);
    const errors = result.success ? {} : result.errors;
    expect(Object.keys(errors)).toEqual(propertyNames);
    for (const name of propertyNames) expect(typeof errors[name], name).toBe('string');
  });

  it('sends the values typed, as own keys of the input', () => {
    const fields = formFieldsFromSchema(schemaOf(true));
    const values = Object.fromEntries(propertyNames.map((name) => [name, `value of ${name}`]));

    const result = validateInputForm(fields, values);

    expect(result.success).toBe(true);
    const input = result.success ? result.input : {};
    expect(Object.keys(input)).toEqual(propertyNames);
    for (const name of propertyNames) {
      expect(Object.getOwnPropertyDescriptor(input, name)?.value, name).toBe(`value of ${name}`);
    }
  });

  it('sends optional ones left empty as ""', () => {
    const fields = formFieldsFromSchema(schemaOf(false));

    const input = buildRunInput(fields, {});

    for (const name of propertyNames) {
      expect(Object.getOwnPropertyDescriptor(input, name)?.value, name).toBe('');
    }
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
  });
});

describe('given an input form with fields named like a property of every object', () => {
  it('shows no message before a submit, and sends what was typed', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(
      <StrictMode>
        <AgentInputForm inputSchema={schemaOf(false)} onSubmit={onSubmit} />
      </StrictMode>,
    );

    const boxes = screen.getAllByRole('textbox');
    expect(boxes).toHaveLength(propertyNames.length);
    for (const box of boxes) expect(box).not.toHaveAttribute('aria-invalid');
    await user.type(boxes[1]!, 'typed');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    const input = onSubmit.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(Object.keys(input)).toEqual(propertyNames);
    expect(Object.getOwnPropertyDescriptor(input, 'constructor')?.value).toBe('typed');
  });
});

describe('given capabilities named like a property of every object', () => {
  it('shows each by its name', () => {
    const capabilities = JSON.parse(
      '{"constructor":true,"toString":false,"__proto__":"soon"}',
    ) as Record<string, unknown>;

    render(
      <StrictMode>
        <AgentDetails agent={{ agent_id: 'a', name: 'A', capabilities }} />
      </StrictMode>,
    );

    expect(
      screen.getAllByRole('listitem').map((item) => item.textContent?.replace(/:.*/, '')),
    ).toEqual(['constructor', 'toString', '__proto__']);
  });
});
