/**
 * A server-rendered input form takes no input until it is hydrated: before that, a click on Run
 * would submit the form natively (a GET of the page with every field in its URL) and typing would
 * be lost when React takes the form over. In the console the form is a lazy part, hydrated only
 * once its chunk is there, after the rest of the page.
 */
import { StrictMode } from 'react';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentInputForm, formFieldsFromSchema } from 'agent-console-kit';

const fields = formFieldsFromSchema({
  type: 'object',
  properties: { title: { type: 'string', title: 'Title' }, urgent: { type: 'boolean' } },
  required: ['title'],
});

const form = (onSubmit = () => {}) => (
  <StrictMode>
    <AgentInputForm fields={fields} aria-label="Intake" onSubmit={onSubmit} />
  </StrictMode>
);

const containers: HTMLElement[] = [];
afterEach(() => {
  for (const container of containers.splice(0)) container.remove();
});

describe('given an input form rendered on a server', () => {
  it('sends its controls and Run disabled, and enables them once hydrated', async () => {
    const html = renderToString(form());
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    containers.push(container);

    const sent = within(container);
    expect(sent.getByRole('textbox', { name: /^Title/ })).toBeDisabled();
    expect(sent.getByRole('checkbox')).toBeDisabled();
    expect(sent.getByRole('button', { name: 'Run' })).toBeDisabled();

    const onRecoverableError = vi.fn();
    const onSubmit = vi.fn();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, form(onSubmit), { onRecoverableError });
    });

    expect(onRecoverableError).not.toHaveBeenCalled();
    expect(sent.getByRole('textbox', { name: /^Title/ })).toBeEnabled();
    expect(sent.getByRole('checkbox')).toBeEnabled();
    expect(sent.getByRole('button', { name: 'Run' })).toBeEnabled();
    // The hydrated form is React's: what is typed and Run reach onSubmit.
    await userEvent.type(sent.getByRole('textbox', { name: /^Title/ }), 'Kick-off');
    await userEvent.click(sent.getByRole('button', { name: 'Run' }));
    expect(onSubmit).toHaveBeenCalledWith({ title: 'Kick-off', urgent: false });
    act(() => root?.unmount());
  });

  it('is enabled from its first commit when the browser renders it alone', () => {
    render(form());

    expect(screen.getByRole('textbox', { name: /^Title/ })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();
  });
});
