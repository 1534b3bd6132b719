import { StrictMode, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { MessageComposer } from 'agent-console-kit';

function renderStrict(node: ReactNode) {
  return render(<StrictMode>{node}</StrictMode>);
}

function userMessage(text: string) {
  return [{ role: 'USER', content: [{ type: 'text', text }] }];
}

describe('given an empty composer', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(<MessageComposer onSend={() => {}} />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('cannot send empty or blank text', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    renderStrict(<MessageComposer onSend={onSend} />);
    const text = screen.getByRole('textbox', { name: 'Message' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await user.type(text, '   {Enter}');
    fireEvent.submit(text.closest('form') as HTMLFormElement);

    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(text.closest('form')).toHaveAttribute('data-empty', '');
  });
});

describe('given a message typed', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(<MessageComposer onSend={() => {}} defaultValue="Hello" />);
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('sends it as a USER message on Enter and clears the text area', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    renderStrict(<MessageComposer onSend={onSend} />);
    const text = screen.getByRole('textbox', { name: 'Message' });

    await user.type(text, 'Hello agent{Enter}');

    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend).toHaveBeenCalledWith(userMessage('Hello agent'));
    expect(text).toHaveValue('');
    expect(text).toHaveAccessibleDescription('Enter sends, Shift+Enter adds a line.');
  });

  it('adds a line on Shift+Enter and sends the lines together', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    renderStrict(<MessageComposer onSend={onSend} />);
    const text = screen.getByRole('textbox', { name: 'Message' });

    await user.type(text, 'first{Shift>}{Enter}{/Shift}second');
    expect(onSend).not.toHaveBeenCalled();
    expect(text).toHaveValue('first\nsecond');

    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith(userMessage('first\nsecond'));
  });

  it('does not send on the Enter that ends an input method composition', () => {
    const onSend = vi.fn();
    renderStrict(<MessageComposer onSend={onSend} defaultValue="にほんご" />);
    const text = screen.getByRole('textbox', { name: 'Message' });

    fireEvent.keyDown(text, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(text, { key: 'Enter', keyCode: 229 });

    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(text, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith(userMessage('にほんご'));
  });

  it('sends with the button, trimmed, and keeps the text when asked to', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn();
    renderStrict(
      <MessageComposer onSend={onSend} keepAfterSend label="Ask" sendLabel="Ask the agent" />,
    );
    const text = screen.getByRole('textbox', { name: 'Ask' });

    await user.type(text, '  What is new?  ');
    await user.click(screen.getByRole('button', { name: 'Ask the agent' }));

    expect(onSend).toHaveBeenCalledWith(userMessage('What is new?'));
    expect(text).toHaveValue('  What is new?  ');
  });
});

describe('given a run in progress', () => {
  it('has no axe violations', async () => {
    const { container } = renderStrict(
      <MessageComposer onSend={() => {}} disabled defaultValue="Hi" />,
    );
    const results = await axe.run(container);
    expect(results.violations).toEqual([]);
  });

  it('disables the text area and the button, and sends nothing', () => {
    const onSend = vi.fn();
    renderStrict(<MessageComposer onSend={onSend} disabled defaultValue="Hi" className="mine" />);
    const text = screen.getByRole('textbox', { name: 'Message' });

    expect(text).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.keyDown(text, { key: 'Enter' });
    fireEvent.submit(text.closest('form') as HTMLFormElement);
    expect(onSend).not.toHaveBeenCalled();
    expect(text.closest('form')).toHaveClass('ack-composer', 'mine');
    expect(text.closest('form')).toHaveAttribute('data-disabled', '');
  });
});
