import { StrictMode, useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { AgentInputForm, formFieldsFromSchema, type AgentInputFormValues } from 'agent-console-kit';

const inputSchema = {
  type: 'object',
  properties: {
    topic: { type: 'string', title: 'Topic', description: 'What to research' },
    notes: { type: 'string', format: 'textarea', title: 'Notes' },
    depth: { type: 'integer', title: 'Depth', minimum: 1, maximum: 5 },
    budget: { type: 'number', title: 'Budget' },
    urgent: { type: 'boolean', title: 'Urgent' },
    tone: { enum: ['formal', 'casual'], title: 'Tone' },
    level: { enum: [1, 2, 3] },
    due: { type: 'string', format: 'date', title: 'Due date' },
    remindAt: { type: 'string', format: 'date-time', title: 'Remind at' },
    extra: { type: 'object', title: 'Extra' },
  },
  required: ['topic', 'depth', 'tone'],
};

function renderStrict(node: ReactNode) {
  return render(<StrictMode>{node}</StrictMode>);
}

describe('given a schema with every field kind', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(
      <AgentInputForm inputSchema={inputSchema} onSubmit={() => {}} />,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('renders a control per kind, labelled from the title or the key', () => {
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={() => {}} />);

    expect(screen.getByRole('textbox', { name: /^Topic/ })).toHaveAttribute('type', 'text');
    expect(screen.getByRole('textbox', { name: 'Notes' }).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('spinbutton', { name: /^Depth/ })).toHaveAttribute('step', '1');
    expect(screen.getByRole('spinbutton', { name: 'Budget' })).toHaveAttribute('step', 'any');
    expect(screen.getByRole('checkbox', { name: 'Urgent' })).not.toBeChecked();
    const tone = screen.getByRole('combobox', { name: /^Tone/ });
    expect(
      within(tone)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'formal', 'casual']);
    expect(
      within(screen.getByRole('combobox', { name: 'Level' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['(none)', '1', '2', '3']);
    expect(screen.getByLabelText('Due date')).toHaveAttribute('type', 'date');
    expect(screen.getByLabelText('Remind at')).toHaveAttribute('type', 'datetime-local');
    // An object property is a kind this form does not know: it falls back to text.
    expect(screen.getByRole('textbox', { name: 'Extra' })).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Run' })).toHaveAttribute('type', 'submit');
  });

  it('marks required fields and ties the description to its control', () => {
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={() => {}} />);

    const topic = screen.getByRole('textbox', { name: /^Topic/ });
    expect(topic).toBeRequired();
    expect(topic).toHaveAccessibleDescription('What to research');
    expect(screen.getByRole('textbox', { name: 'Notes' })).not.toBeRequired();
    expect(screen.getByText('Fields marked * are required.')).toBeVisible();
    expect(topic).not.toHaveAttribute('aria-invalid');
    expect(topic.closest('.ack-input-form__field')).toHaveAttribute('data-required', '');
    expect(
      screen.getByRole('textbox', { name: 'Notes' }).closest('.ack-input-form__field'),
    ).not.toHaveAttribute('data-required');
  });

  it('submits every field, optional empty ones as "" and numbers parsed', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /^Topic/ }), 'zod');
    await user.type(screen.getByRole('spinbutton', { name: /^Depth/ }), '3');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Tone/ }), 'casual');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({
      topic: 'zod',
      notes: '',
      depth: 3,
      budget: '',
      urgent: false,
      tone: 'casual',
      level: '',
      due: '',
      remindAt: '',
      extra: '',
    });
  });

  it('sends every kind with its value typed', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={onSubmit} />);

    await user.type(screen.getByRole('textbox', { name: /^Topic/ }), 'zod');
    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'line 1{Enter}line 2');
    await user.type(screen.getByRole('spinbutton', { name: /^Depth/ }), '5');
    await user.type(screen.getByRole('spinbutton', { name: 'Budget' }), '2.5');
    await user.click(screen.getByRole('checkbox', { name: 'Urgent' }));
    await user.selectOptions(screen.getByRole('combobox', { name: /^Tone/ }), 'formal');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Level' }), '2');
    fireEvent.change(screen.getByLabelText('Due date'), { target: { value: '2026-03-04' } });
    fireEvent.change(screen.getByLabelText('Remind at'), { target: { value: '2026-03-04T05:06' } });
    await user.type(screen.getByRole('textbox', { name: 'Extra' }), 'anything');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).toHaveBeenCalledWith({
      topic: 'zod',
      notes: 'line 1\nline 2',
      depth: 5,
      budget: 2.5,
      urgent: true,
      tone: 'formal',
      level: 2,
      due: '2026-03-04',
      remindAt: new Date('2026-03-04T05:06').toISOString(),
      extra: 'anything',
    });
  });

  it('starts from the schema defaults', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(
      <AgentInputForm
        inputSchema={{
          type: 'object',
          properties: {
            topic: { type: 'string', default: 'testing' },
            depth: { type: 'integer', default: 2 },
            urgent: { type: 'boolean', default: true },
          },
        }}
        onSubmit={onSubmit}
      />,
    );

    expect(screen.getByRole('textbox', { name: 'Topic' })).toHaveValue('testing');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).toHaveBeenCalledWith({ topic: 'testing', depth: 2, urgent: true });
  });
});

describe('given invalid values', () => {
  it('has no axe violations while messages show', async () => {
    const user = userEvent.setup();
    const { container } = renderStrict(
      <AgentInputForm inputSchema={inputSchema} onSubmit={() => {}} />,
    );
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const results = await axe.run(container);

    expect(results.violations).toEqual([]);
  });

  it('sends nothing, shows a message per field and focuses the first invalid control', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={onSubmit} />);

    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).not.toHaveBeenCalled();
    const topic = screen.getByRole('textbox', { name: /^Topic/ });
    expect(topic).toHaveFocus();
    expect(topic).toHaveAttribute('aria-invalid', 'true');
    expect(topic).toHaveAccessibleDescription('What to research Topic is required.');
    expect(screen.getByRole('spinbutton', { name: /^Depth/ })).toHaveAccessibleDescription(
      'Depth is required.',
    );
    expect(screen.getByRole('combobox', { name: /^Tone/ })).toHaveAccessibleDescription(
      'Tone is required.',
    );
    expect(screen.getByRole('textbox', { name: 'Notes' })).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('textbox', { name: 'Notes' })).not.toHaveAttribute('aria-describedby');
    expect(topic.closest('.ack-input-form__field')).toHaveAttribute('data-invalid', '');
  });

  it('focuses the first invalid control in field order', async () => {
    const user = userEvent.setup();
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={() => {}} />);

    await user.type(screen.getByRole('textbox', { name: /^Topic/ }), 'zod');
    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(screen.getByRole('spinbutton', { name: /^Depth/ })).toHaveFocus();
  });

  it('checks whole numbers and the schema’s bounds', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<AgentInputForm inputSchema={inputSchema} onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: /^Topic/ }), 'zod');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Tone/ }), 'formal');
    const depth = screen.getByRole('spinbutton', { name: /^Depth/ });

    await user.type(depth, '2.5');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(depth).toHaveAccessibleDescription('Depth must be a whole number.');

    await user.clear(depth);
    await user.type(depth, '9');
    expect(depth).toHaveAccessibleDescription('Depth must be at most 5.');

    await user.clear(depth);
    await user.type(depth, '4');
    expect(depth).not.toHaveAttribute('aria-invalid');
    expect(depth).not.toHaveAccessibleDescription();
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ depth: 4 }));
  });

  it('refuses a value that is not one of an enum’s options', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(
      <AgentInputForm
        inputSchema={inputSchema}
        values={{ topic: 'zod', depth: '2', tone: 'rude' }}
        onSubmit={onSubmit}
      />,
    );

    await user.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('combobox', { name: /^Tone/ })).toHaveAccessibleDescription(
      'Tone must be one of: formal, casual.',
    );
  });

  it('shows messages given from outside', () => {
    renderStrict(
      <AgentInputForm
        inputSchema={inputSchema}
        errors={{ budget: 'The service says the budget is too small.' }}
        onSubmit={() => {}}
      />,
    );

    const budget = screen.getByRole('spinbutton', { name: 'Budget' });
    expect(budget).toHaveAttribute('aria-invalid', 'true');
    expect(budget).toHaveAccessibleDescription('The service says the budget is too small.');
  });
});

describe('given a run in progress', () => {
  it('has no axe violations while disabled', async () => {
    const { container } = renderStrict(
      <AgentInputForm inputSchema={inputSchema} disabled onSubmit={() => {}} />,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('disables every control and the submit button, and submits nothing', () => {
    const onSubmit = vi.fn();
    const { container } = renderStrict(
      <AgentInputForm
        inputSchema={inputSchema}
        defaultValues={{ topic: 'zod', depth: 2, tone: 'formal' }}
        disabled
        onSubmit={onSubmit}
      />,
    );

    for (const control of container.querySelectorAll('input, textarea, select, button')) {
      expect(control).toBeDisabled();
    }
    expect(container.querySelector('form')).toHaveAttribute('data-disabled', '');
    fireEvent.submit(container.querySelector('form') as HTMLFormElement);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('given controlled values', () => {
  function Controlled({ onSubmit }: { onSubmit: (input: Record<string, unknown>) => void }) {
    const [values, setValues] = useState<AgentInputFormValues>({ topic: 'start' });
    return (
      <>
        <AgentInputForm
          inputSchema={inputSchema}
          values={values}
          onValuesChange={setValues}
          onSubmit={onSubmit}
        />
        <output aria-label="values">{JSON.stringify(values)}</output>
      </>
    );
  }

  it('has no axe violations', async () => {
    const { container } = renderStrict(<Controlled onSubmit={() => {}} />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('reports every value on change and shows the values it is given', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<Controlled onSubmit={onSubmit} />);
    const topic = screen.getByRole('textbox', { name: /^Topic/ });
    expect(topic).toHaveValue('start');

    await user.type(topic, '!');
    await user.type(screen.getByRole('spinbutton', { name: /^Depth/ }), '1');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Tone/ }), 'formal');

    const values = JSON.parse(screen.getByRole('status', { name: 'values' }).textContent ?? '{}');
    expect(values).toMatchObject({ topic: 'start!', depth: '1', tone: 'formal', urgent: false });
    expect(Object.keys(values)).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ topic: 'start!', depth: 1 }));
  });
});

describe('given default values and a reset', () => {
  function WithReset() {
    const [runs, setRuns] = useState(0);
    return (
      <>
        <AgentInputForm
          inputSchema={inputSchema}
          defaultValues={{ topic: 'default topic' }}
          resetKey={runs}
          onSubmit={() => {}}
        />
        <button type="button" onClick={() => setRuns((count) => count + 1)}>
          New run
        </button>
      </>
    );
  }

  it('has no axe violations', async () => {
    const { container } = renderStrict(<WithReset />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('goes back to the default values and clears messages when the reset key changes', async () => {
    const user = userEvent.setup();
    renderStrict(<WithReset />);
    const topic = screen.getByRole('textbox', { name: /^Topic/ });
    expect(topic).toHaveValue('default topic');
    await user.clear(topic);
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(topic).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'New run' }));

    expect(topic).toHaveValue('default topic');
    expect(topic).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Topic is required.')).toBeNull();
  });

  it('resets with a reset button inside the form', async () => {
    const user = userEvent.setup();
    renderStrict(
      <AgentInputForm inputSchema={inputSchema} defaultValues={{ topic: 'a' }} onSubmit={() => {}}>
        <AgentInputForm.Field name="topic" />
        <button type="reset">Clear</button>
      </AgentInputForm>,
    );
    const topic = screen.getByRole('textbox', { name: /^Topic/ });
    await user.type(topic, 'bc');
    expect(topic).toHaveValue('abc');

    await user.click(screen.getByRole('button', { name: 'Clear' }));

    expect(topic).toHaveValue('a');
  });
});

describe('given a custom layout built from the parts', () => {
  const fields = formFieldsFromSchema(inputSchema);

  function Custom({ onSubmit }: { onSubmit: (input: Record<string, unknown>) => void }) {
    return (
      <AgentInputForm.Root
        fields={fields}
        onSubmit={onSubmit}
        className="my-form"
        aria-label="Research"
      >
        <AgentInputForm.Field name="topic" className="my-field">
          <AgentInputForm.Label className="my-label">Research topic</AgentInputForm.Label>
          <AgentInputForm.Control className="my-control" placeholder="e.g. zod" />
          <AgentInputForm.Message className="my-message" />
        </AgentInputForm.Field>
        <AgentInputForm.Field name="tone" />
        <AgentInputForm.Field name="depth" />
        <AgentInputForm.Field name="not-a-field" />
        <AgentInputForm.Submit className="my-submit">Research</AgentInputForm.Submit>
      </AgentInputForm.Root>
    );
  }

  it('has no axe violations', async () => {
    const { container } = renderStrict(<Custom onSubmit={() => {}} />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('renders the parts with their class names and data attributes, and submits every field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    renderStrict(<Custom onSubmit={onSubmit} />);

    const form = screen.getByRole('form', { name: 'Research' });
    expect(form).toHaveClass('ack-input-form', 'my-form');
    const topic = screen.getByRole('textbox', { name: /^Research topic/ });
    expect(topic).toHaveClass('ack-input-form__control', 'my-control');
    expect(topic).toHaveAttribute('placeholder', 'e.g. zod');
    expect(topic.closest('.my-field')).toHaveAttribute('data-kind', 'text');
    expect(screen.getByText('Research topic')).toHaveClass('my-label');
    // No Description part in this layout: nothing describes the control.
    expect(topic).not.toHaveAttribute('aria-describedby');

    await user.click(screen.getByRole('button', { name: 'Research' }));
    expect(screen.getByText('Topic is required.')).toHaveClass('my-message');
    expect(topic).toHaveAccessibleDescription('Topic is required.');
    expect(topic.closest('.my-field')).toHaveAttribute('data-invalid', '');

    await user.type(topic, 'zod');
    await user.selectOptions(screen.getByRole('combobox', { name: /^Tone/ }), 'casual');
    await user.type(screen.getByRole('spinbutton', { name: /^Depth/ }), '1');
    await user.click(screen.getByRole('button', { name: 'Research' }));
    expect(onSubmit).toHaveBeenCalledWith(
      Object.fromEntries(
        fields.map((field) => [
          field.name,
          { topic: 'zod', tone: 'casual', depth: 1, urgent: false }[field.name] ?? '',
        ]),
      ),
    );
  });

  it('throws an error naming the part and its root when a part is used outside it', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderStrict(<AgentInputForm.Field name="topic" />)).toThrow(
      '<AgentInputForm.Field> must be used within <AgentInputForm>.',
    );
    expect(() =>
      renderStrict(
        <AgentInputForm fields={fields} onSubmit={() => {}}>
          <AgentInputForm.Label />
        </AgentInputForm>,
      ),
    ).toThrow('<AgentInputForm.Label> must be used within <AgentInputForm.Field>.');
    spy.mockRestore();
  });
});
