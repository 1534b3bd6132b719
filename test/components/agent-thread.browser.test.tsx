import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { act, render } from '@testing-library/react';
import axe from 'axe-core';
import 'agent-console-kit/styles.css';
import { AgentThread, type ConversationMessage } from 'agent-console-kit';

function thread(count: number, lastStatus: ConversationMessage['status'] = 'done') {
  return Array.from({ length: count }, (_, index): ConversationMessage => {
    const user = index % 2 === 0;
    return {
      id: `m${index}`,
      role: user ? 'USER' : 'GLEAN_AI',
      text: user
        ? `Question ${index / 2 + 1}: what about item ${index}?`
        : `Answer ${index}: ${'a few words of the answer '.repeat(1 + (index % 5))}`,
      status: index === count - 1 ? lastStatus : 'done',
      createdAt: index,
    };
  });
}

function show(messages: ConversationMessage[], status: 'idle' | 'streaming' = 'idle') {
  return (
    <StrictMode>
      <label>
        Elsewhere <input />
      </label>
      <AgentThread messages={messages} status={status} height={300} onRetry={() => undefined} />
    </StrictMode>
  );
}

function viewport() {
  const element = document.querySelector<HTMLElement>('.ack-thread__viewport');
  if (!element) throw new Error('no viewport');
  return element;
}

const atBottom = (element: HTMLElement) =>
  element.scrollHeight - element.clientHeight - element.scrollTop <= 32;

describe('given a thread in Chromium', () => {
  it('follows the newest message at the bottom, stops when scrolled up, and Jump returns', async () => {
    let messages = thread(30);
    const { rerender } = render(show(messages));
    expect(atBottom(viewport())).toBe(true);

    messages = [...messages, ...thread(32).slice(30)];
    rerender(show(messages));
    expect(atBottom(viewport())).toBe(true);

    await act(async () => {
      viewport().scrollTop = 0;
      viewport().dispatchEvent(new Event('scroll'));
    });
    await expect
      .element(page.getByRole('button', { name: 'Jump to the newest message' }))
      .toBeVisible();
    rerender(show([...messages, ...thread(34).slice(32)]));
    expect(viewport().scrollTop).toBe(0);

    await userEvent.click(page.getByRole('button', { name: 'Jump to the newest message' }));

    expect(atBottom(viewport())).toBe(true);
    expect(viewport()).toHaveFocus();
    expect(document.querySelector('.ack-thread__jump')).toBeNull();
  });

  it('never takes focus while an answer streams in', async () => {
    const messages = thread(10, 'streaming');
    const { rerender } = render(show(messages, 'streaming'));
    await userEvent.click(page.getByRole('textbox', { name: 'Elsewhere' }));

    for (let token = 0; token < 20; token += 1) {
      const last = messages.at(-1) as ConversationMessage;
      messages[messages.length - 1] = { ...last, text: `${last.text} token${token}` };
      rerender(show([...messages], 'streaming'));
    }
    rerender(
      show([
        ...messages.slice(0, -1),
        { ...(messages.at(-1) as ConversationMessage), status: 'done' },
      ]),
    );

    await expect.element(page.getByRole('textbox', { name: 'Elsewhere' })).toHaveFocus();
    expect(atBottom(viewport())).toBe(true);
  });

  it('keeps a control focused in the thread in view while an answer streams, then follows the end once focus leaves', async () => {
    const messages = thread(10, 'streaming');
    const showEditable = (list: ConversationMessage[]) => (
      <StrictMode>
        <label>
          Elsewhere <input />
        </label>
        <AgentThread
          messages={list}
          status="streaming"
          height={300}
          onRetry={() => undefined}
          onEdit={() => undefined}
        />
      </StrictMode>
    );
    const { rerender } = render(showEditable(messages));
    // The question being answered: its Edit, reached by keyboard.
    const edit = page.getByRole('button', { name: 'Edit your message' }).last().element();
    await userEvent.click(page.getByRole('textbox', { name: 'Elsewhere' }));
    (edit as HTMLElement).focus();

    for (let token = 0; token < 30; token += 1) {
      const last = messages.at(-1) as ConversationMessage;
      messages[messages.length - 1] = { ...last, text: `${last.text}\n\nParagraph ${token}.` };
      rerender(showEditable([...messages]));
    }

    await expect.element(edit).toHaveFocus();
    const frame = viewport().getBoundingClientRect();
    const button = edit.getBoundingClientRect();
    expect(button.top).toBeGreaterThanOrEqual(frame.top);
    expect(button.bottom).toBeLessThanOrEqual(frame.bottom);
    // As far toward the end as that allows: the focused Edit at the top, the answer below it.
    expect(button.top - frame.top).toBeLessThan(40);
    expect(atBottom(viewport())).toBe(false);

    await userEvent.click(page.getByRole('textbox', { name: 'Elsewhere' }));
    await expect.poll(() => atBottom(viewport())).toBe(true);
  });

  it('shows a 1,000-message thread at its newest message, and stays axe clean', async () => {
    const messages = thread(1000);

    const { container } = render(show(messages));

    expect(atBottom(viewport())).toBe(true);
    await expect.element(page.getByText('Answer 999:', { exact: false })).toBeInTheDocument();
    // Messages off screen are laid out late (content-visibility): the thread stays at the bottom.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(atBottom(viewport())).toBe(true);
    expect(document.querySelector('.ack-thread__jump')).toBeNull();
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: true } } });
    expect(results.violations).toEqual([]);
  });

  it('reveals earlier messages above without moving the ones in view, by mouse and by keyboard', async () => {
    render(show(thread(230)));
    await act(async () => {
      viewport().scrollTop = 0;
      viewport().dispatchEvent(new Event('scroll'));
    });
    const firstShown = page.getByRole('listitem').first().element();
    expect(firstShown).toHaveTextContent('Question 66:');
    const topBefore = firstShown.getBoundingClientRect().top;

    await userEvent.click(page.getByRole('button', { name: 'Show 50 earlier messages' }));

    await expect.element(page.getByRole('listitem').first()).toHaveTextContent('Question 41:');
    // Within a pixel: scrollTop rounds to device pixels. Messages laid out late (content-visibility) must not move it either.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Math.abs(firstShown.getBoundingClientRect().top - topBefore)).toBeLessThanOrEqual(1);
    expect(viewport().scrollTop).toBeGreaterThan(0);

    // By keyboard: the button is reached from the top of the thread, and the last page takes it away.
    await act(async () => {
      viewport().scrollTop = 0;
      viewport().dispatchEvent(new Event('scroll'));
    });
    const secondFirst = page.getByRole('listitem').first().element();
    page.getByRole('button', { name: 'Show 50 earlier messages' }).element().focus();
    const secondTop = secondFirst.getBoundingClientRect().top;
    await userEvent.keyboard('{Enter}');
    await expect
      .element(page.getByRole('button', { name: 'Show 30 earlier messages' }))
      .toHaveFocus();
    expect(Math.abs(secondFirst.getBoundingClientRect().top - secondTop)).toBeLessThanOrEqual(1);

    await act(async () => {
      viewport().scrollTop = 0;
      viewport().dispatchEvent(new Event('scroll'));
    });
    const thirdFirst = page.getByRole('listitem').first().element();
    const thirdTop = thirdFirst.getBoundingClientRect().top;
    await userEvent.keyboard(' ');
    await expect.element(page.getByRole('listitem').first()).toHaveTextContent('Question 1:');
    expect(page.getByRole('button', { name: /earlier message/ }).query()).toBeNull();
    expect(viewport()).toHaveFocus();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(Math.abs(thirdFirst.getBoundingClientRect().top - thirdTop)).toBeLessThanOrEqual(1);
  });

  it('keeps following the newest message as turns arrive into a windowed thread', async () => {
    let messages = thread(150);
    const { rerender } = render(show(messages));
    expect(atBottom(viewport())).toBe(true);
    // elements(), not all(): all() builds a locator (a unique selector) per item, seconds for 100.
    expect(page.getByRole('listitem').elements()).toHaveLength(100);

    messages = thread(152, 'streaming');
    rerender(show(messages, 'streaming'));
    await expect.element(page.getByRole('listitem').last()).toHaveTextContent('Answer 151:');
    expect(page.getByRole('listitem').elements()).toHaveLength(100);
    // Messages off screen are laid out lazily: the viewport returns to the bottom when they are.
    await expect.poll(() => atBottom(viewport())).toBe(true);
  });

  it('keeps the message being read in place when a turn arrives while scrolled up', async () => {
    const { rerender } = render(show(thread(150)));
    await act(async () => {
      viewport().scrollTop = viewport().scrollHeight / 2;
      viewport().dispatchEvent(new Event('scroll'));
    });
    await expect
      .element(page.getByRole('button', { name: 'Jump to the newest message' }))
      .toBeVisible();
    const frame = viewport().getBoundingClientRect();
    const reading = page
      .getByRole('listitem')
      .elements()
      .find((item) => item.getBoundingClientRect().top > frame.top + 20) as Element;
    const topBefore = reading.getBoundingClientRect().top;

    rerender(show(thread(152, 'streaming'), 'streaming'));
    await expect.element(page.getByRole('listitem').last()).toHaveTextContent('Answer 151:');
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(reading.isConnected).toBe(true);
    expect(Math.abs(reading.getBoundingClientRect().top - topBefore)).toBeLessThanOrEqual(1);
  });
});
