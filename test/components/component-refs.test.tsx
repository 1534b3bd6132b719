import {
  createRef,
  StrictMode,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import {
  AgentDetails,
  AgentErrorMessage,
  AgentEventLog,
  AgentInputForm,
  AgentNetworkError,
  AgentPicker,
  AgentRunHistory,
  AgentRunOutput,
  AgentRunStatus,
  AgentThread,
  AgentThreadComposer,
  createAgentClient,
  formFieldsFromSchema,
  MessageComposer,
  type AgentDetailsProps,
  type AgentErrorMessageProps,
  type AgentEventLogProps,
  type AgentInputFormProps,
  type AgentThreadComposerProps,
  type AgentPickerProps,
  type AgentRunHistoryProps,
  type AgentRunOutputProps,
  type AgentRunStatusProps,
  type AgentThreadProps,
  type ConversationMessage,
  type MessageComposerProps,
  type RunEvent,
} from 'agent-console-kit';
import type { RunHistoryEntry } from 'agent-console-kit/core';
import { AgentConsole, type AgentConsoleProps } from 'agent-console-kit/console';
import { demoAgents } from 'agent-console-kit/testing';
import { setUpMockServer } from '../support/mock-server.js';
import { renderAgentConsole, withConsoleProviders } from '../support/console.js';

const server = setUpMockServer({ agents: demoAgents });

const fields = formFieldsFromSchema({
  type: 'object',
  properties: { topic: { type: 'string', title: 'Topic', description: 'What to research' } },
  required: ['topic'],
});

function renderStrict(node: ReactNode) {
  return render(<StrictMode>{node}</StrictMode>);
}

function event(sequence: number): RunEvent {
  return {
    sequence,
    id: String(sequence),
    lastEventId: String(sequence),
    event: 'message',
    data: '{}',
    payload: {},
    kind: 'unknown',
    text: '',
    receivedAt: sequence,
    attempt: 1,
    restart: false,
  };
}

const thread: ConversationMessage[] = [
  { id: 'u1', role: 'USER', text: 'Hello', status: 'done', createdAt: 1 },
  { id: 'a1', role: 'GLEAN_AI', text: 'Hi there', status: 'done', createdAt: 2 },
];

const historyEntry: RunHistoryEntry = {
  id: 'r1',
  input: { topic: 'Otters' },
  messages: undefined,
  status: 'done',
  text: 'Otters hold hands.',
  error: undefined,
  startedAt: undefined,
  firstEventAt: undefined,
  endedAt: undefined,
  attempts: 1,
  restarts: 0,
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('given a ref on a display part', () => {
  it('AgentDetails points it at its section', () => {
    const ref = createRef<HTMLElement>();
    renderStrict(
      <AgentDetails ref={ref} agent={{ agent_id: 'a', name: 'Researcher', capabilities: {} }} />,
    );

    expect(ref.current).toBe(screen.getByRole('region', { name: 'Researcher' }));
  });

  it('AgentRunOutput points it at its region', () => {
    const ref = createRef<HTMLDivElement>();
    renderStrict(<AgentRunOutput ref={ref} text="Hello" />);

    expect(ref.current).toBe(screen.getByRole('region', { name: 'Agent output' }));
  });

  it('AgentRunStatus points it at its status line', () => {
    const ref = createRef<HTMLParagraphElement>();
    renderStrict(<AgentRunStatus ref={ref} status="idle" />);

    expect(ref.current).toBe(screen.getByRole('status'));
    expect(ref.current).toHaveTextContent('Ready.');
  });

  it('AgentErrorMessage points it at its alert', () => {
    const ref = createRef<HTMLDivElement>();
    const error = new AgentNetworkError('Could not reach the service', { url: 'http://x.test' });
    renderStrict(<AgentErrorMessage ref={ref} error={error} />);

    expect(ref.current).toBe(screen.getByRole('alert'));
  });

  it('AgentThreadComposer points it at its form', () => {
    const ref = createRef<HTMLFormElement>();
    renderStrict(
      <AgentThreadComposer ref={ref} aria-label="Ask" onSend={() => {}} onStop={() => {}} />,
    );

    expect(ref.current).toBe(screen.getByRole('form', { name: 'Ask' }));
  });

  it('MessageComposer points it at its form', () => {
    const ref = createRef<HTMLFormElement>();
    renderStrict(<MessageComposer ref={ref} aria-label="Ask" onSend={() => {}} />);

    expect(ref.current).toBe(screen.getByRole('form', { name: 'Ask' }));
  });
});

describe('given a ref on the thread', () => {
  it('AgentThread points it at the conversation region, the one AgentThreadRoot renders', async () => {
    const ref = createRef<HTMLElement>();
    const { container } = renderStrict(
      <AgentThread ref={ref} agentName="Helpdesk" messages={thread} />,
    );

    const region = screen.getByRole('region', { name: 'Conversation' });
    expect(ref.current).toBe(region);
    expect(ref.current).toHaveClass('ack-thread');
    expect(within(region).getAllByRole('listitem')).toHaveLength(2);
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('AgentRunHistory points it at its region', () => {
    const ref = createRef<HTMLElement>();
    renderStrict(<AgentRunHistory ref={ref} entries={[historyEntry]} />);

    expect(ref.current).toBe(screen.getByRole('region', { name: 'Run history' }));
    expect(ref.current).toHaveTextContent('Otters hold hands.');
  });
});

describe('given refs on every part of a thread', () => {
  it('points each at its root element', async () => {
    const rootRef = createRef<HTMLElement>();
    const viewportRef = createRef<HTMLDivElement>();
    const messagesRef = createRef<HTMLOListElement>();
    const messageRef = createRef<HTMLLIElement>();
    const announcerRef = createRef<HTMLDivElement>();
    const [question, answer] = thread as [ConversationMessage, ConversationMessage];
    const { container } = renderStrict(
      <AgentThread.Root ref={rootRef} agentName="Helpdesk" messages={thread}>
        <AgentThread.Viewport ref={viewportRef}>
          <AgentThread.Messages ref={messagesRef} aria-label="Every message" />
          <ol aria-label="Picked">
            <AgentThread.Message message={question} />
            <AgentThread.Message ref={messageRef} message={answer} agentName="Helpdesk" />
          </ol>
        </AgentThread.Viewport>
        <AgentThread.Announcer ref={announcerRef} />
      </AgentThread.Root>,
    );

    expect(rootRef.current).toBe(screen.getByRole('region', { name: 'Conversation' }));
    expect(viewportRef.current).toBe(screen.getByRole('log', { name: 'Messages' }));
    expect(messagesRef.current).toBe(screen.getByRole('list', { name: 'Every message' }));
    expect(messageRef.current).toBe(
      within(screen.getByRole('list', { name: 'Picked' })).getByRole('listitem', {
        name: 'Helpdesk answered',
      }),
    );
    expect(announcerRef.current).toBe(screen.getByRole('status'));
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('leaves the list ref null while the thread is empty', () => {
    const ref = createRef<HTMLOListElement>();
    renderStrict(
      <AgentThread.Root messages={[]}>
        <AgentThread.Messages ref={ref} />
      </AgentThread.Root>,
    );

    expect(screen.getByText('No messages yet.')).toBeInTheDocument();
    expect(ref.current).toBeNull();
  });

  it('keeps the viewport following and jumping with its own ref, next to the one given', () => {
    const ref = createRef<HTMLDivElement>();
    renderStrict(
      <AgentThread.Root messages={thread}>
        <AgentThread.Viewport ref={ref}>
          <AgentThread.Messages />
        </AgentThread.Viewport>
      </AgentThread.Root>,
    );
    const log = screen.getByRole('log', { name: 'Messages' });
    expect(ref.current).toBe(log);
    // jsdom has no layout: the log gets a size and a scroll position.
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 100 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, writable: true, value: 900 });
    fireEvent.scroll(log);
    log.scrollTop = 200;
    fireEvent.scroll(log);

    expect(log).not.toHaveAttribute('data-following');

    fireEvent.click(screen.getByRole('button', { name: 'Jump to the newest message' }));

    expect(log).toHaveAttribute('data-following');
    expect(log.scrollTop).toBe(1000);
    expect(log).toHaveFocus();
  });

  it('gives a callback ref on a message the element, and null once it unmounts', () => {
    const seen: (HTMLLIElement | null)[] = [];
    const [question] = thread as [ConversationMessage];
    const { unmount } = renderStrict(
      <ol>
        <AgentThread.Message ref={(element) => void seen.push(element)} message={question} />
      </ol>,
    );

    const item = screen.getByRole('listitem', { name: 'You said' });
    expect(seen.at(-1)).toBe(item);

    unmount();

    expect(seen.at(-1)).toBeNull();
  });
});

describe('given a ref on the event log, whose scroller has a ref of its own', () => {
  it('points it at the log section, and the scroller still drives the virtual rows', async () => {
    // jsdom has no layout: the scroller and the rows get a size so the virtual rows render.
    vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
      return this.getAttribute('role') === 'log' ? 800 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return this.getAttribute('role') === 'listitem' ? 20 : 0;
    });
    const ref = createRef<HTMLElement>();
    const { container } = renderStrict(
      <AgentEventLog ref={ref} events={[event(1), event(2), event(3)]} />,
    );

    expect(ref.current).toBe(screen.getByRole('region', { name: 'Run events' }));
    const log = screen.getByRole('log', { name: 'Run events' });
    expect(ref.current?.contains(log)).toBe(true);
    expect(within(log).getAllByRole('listitem')).toHaveLength(3);
    expect((await axe.run(container)).violations).toEqual([]);
  });
});

describe('given refs on the input form and every part of it', () => {
  it('points each at its root element; the control keeps focusing the first invalid field', async () => {
    const formRef = createRef<HTMLFormElement>();
    const fieldRef = createRef<HTMLDivElement>();
    const labelRef = createRef<HTMLLabelElement>();
    const descriptionRef = createRef<HTMLParagraphElement>();
    const controlRef = createRef<HTMLElement>();
    const messageRef = createRef<HTMLParagraphElement>();
    const submitRef = createRef<HTMLButtonElement>();
    const onSubmit = vi.fn();
    const { container } = renderStrict(
      <AgentInputForm ref={formRef} aria-label="Research" fields={fields} onSubmit={onSubmit}>
        <AgentInputForm.Field ref={fieldRef} name="topic">
          <AgentInputForm.Label ref={labelRef} />
          <AgentInputForm.Description ref={descriptionRef} />
          <AgentInputForm.Control ref={controlRef} />
          <AgentInputForm.Message ref={messageRef} />
        </AgentInputForm.Field>
        <AgentInputForm.Submit ref={submitRef} />
      </AgentInputForm>,
    );

    const control = screen.getByRole('textbox', { name: /^Topic/ });
    expect(formRef.current).toBe(screen.getByRole('form', { name: 'Research' }));
    expect(controlRef.current).toBe(control);
    expect(labelRef.current).toBe((control as HTMLInputElement).labels?.[0]);
    expect(descriptionRef.current).toBe(screen.getByText('What to research'));
    expect(submitRef.current).toBe(screen.getByRole('button', { name: 'Run' }));
    expect(fieldRef.current).toBe(control.parentElement?.closest('[data-kind]'));
    expect(messageRef.current).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));

    expect(onSubmit).not.toHaveBeenCalled();
    expect(messageRef.current).toBe(screen.getByText('Topic is required.'));
    expect(fieldRef.current).toHaveAttribute('data-invalid');
    expect(control).toHaveFocus();
    expect((await axe.run(container)).violations).toEqual([]);
  });

  it('gives a callback ref on the control the element, and null once it unmounts', () => {
    const seen: (HTMLElement | null)[] = [];
    const { unmount } = renderStrict(
      <AgentInputForm fields={fields} onSubmit={() => {}}>
        <AgentInputForm.Field name="topic">
          <AgentInputForm.Label />
          <AgentInputForm.Control ref={(element) => void seen.push(element)} />
        </AgentInputForm.Field>
      </AgentInputForm>,
    );

    const control = screen.getByRole('textbox', { name: /^Topic/ });
    expect(seen.at(-1)).toBe(control);
    expect(seen.filter((element) => element !== null && element !== control)).toEqual([]);

    unmount();

    expect(seen.at(-1)).toBeNull();
  });

  it('calls the cleanup a callback ref on the control returns (React 19) once per attach', () => {
    const attached: HTMLElement[] = [];
    let cleanups = 0;
    const { unmount } = renderStrict(
      <AgentInputForm fields={fields} onSubmit={() => {}}>
        <AgentInputForm.Field name="topic">
          <AgentInputForm.Label />
          <AgentInputForm.Control
            ref={(element) => {
              if (element) attached.push(element);
              return () => {
                cleanups += 1;
              };
            }}
          />
        </AgentInputForm.Field>
      </AgentInputForm>,
    );

    expect(attached.at(-1)).toBe(screen.getByRole('textbox', { name: /^Topic/ }));
    expect(cleanups).toBe(attached.length - 1);

    unmount();

    expect(cleanups).toBe(attached.length);
  });
});

describe('given a ref on the console', () => {
  it('points it at the console section once the agent has loaded', async () => {
    const ref = createRef<HTMLElement>();
    renderAgentConsole(createAgentClient({ baseUrl: server.url }), { ref, agentId: 'chat-agent' });

    const console = await screen.findByRole('region', { name: 'Agent console: Helpdesk chat' });

    expect(ref.current).toBe(console);
  });
});

describe('given a ref on the agent picker', () => {
  it('points it at the picker root, which holds the combobox', () => {
    const ref = createRef<HTMLDivElement>();
    const client = createAgentClient({ baseUrl: server.url });
    render(withConsoleProviders(client, <AgentPicker ref={ref} onChange={() => {}} />));

    expect(ref.current).toHaveClass('ack-picker');
    expect(ref.current?.contains(screen.getByRole('combobox', { name: 'Agent' }))).toBe(true);
  });
});

// Each props type is exactly what its part takes, ref included, so a part can stand in wherever its
// props type is asked for (e.g. `AgentConsole`'s `components`), with React 18's types and 19's.
const partsTakeTheirPropsTypes: [
  ComponentType<AgentConsoleProps>,
  ComponentType<AgentDetailsProps>,
  ComponentType<AgentErrorMessageProps>,
  ComponentType<AgentEventLogProps>,
  ComponentType<AgentInputFormProps>,
  ComponentType<ComponentProps<typeof AgentInputForm.Field>>,
  ComponentType<ComponentProps<typeof AgentInputForm.Label>>,
  ComponentType<ComponentProps<typeof AgentInputForm.Control>>,
  ComponentType<ComponentProps<typeof AgentInputForm.Description>>,
  ComponentType<ComponentProps<typeof AgentInputForm.Message>>,
  ComponentType<ComponentProps<typeof AgentInputForm.Submit>>,
  ComponentType<AgentPickerProps>,
  ComponentType<AgentRunHistoryProps>,
  ComponentType<AgentRunOutputProps>,
  ComponentType<AgentRunStatusProps>,
  ComponentType<AgentThreadProps>,
  ComponentType<ComponentProps<typeof AgentThread.Root>>,
  ComponentType<ComponentProps<typeof AgentThread.Viewport>>,
  ComponentType<ComponentProps<typeof AgentThread.Messages>>,
  ComponentType<ComponentProps<typeof AgentThread.Message>>,
  ComponentType<ComponentProps<typeof AgentThread.Announcer>>,
  ComponentType<AgentThreadComposerProps>,
  ComponentType<MessageComposerProps>,
] = [
  AgentConsole,
  AgentDetails,
  AgentErrorMessage,
  AgentEventLog,
  AgentInputForm,
  AgentInputForm.Field,
  AgentInputForm.Label,
  AgentInputForm.Control,
  AgentInputForm.Description,
  AgentInputForm.Message,
  AgentInputForm.Submit,
  AgentPicker,
  AgentRunHistory,
  AgentRunOutput,
  AgentRunStatus,
  AgentThread,
  AgentThread.Root,
  AgentThread.Viewport,
  AgentThread.Messages,
  AgentThread.Message,
  AgentThread.Announcer,
  AgentThreadComposer,
  MessageComposer,
];

describe('given the parts', () => {
  it('keep readable display names', () => {
    expect(partsTakeTheirPropsTypes.map((part) => part.displayName)).toEqual([
      'AgentConsole',
      'AgentDetails',
      'AgentErrorMessage',
      'AgentEventLog',
      'AgentInputForm',
      'AgentInputForm.Field',
      'AgentInputForm.Label',
      'AgentInputForm.Control',
      'AgentInputForm.Description',
      'AgentInputForm.Message',
      'AgentInputForm.Submit',
      'AgentPicker',
      'AgentRunHistory',
      'AgentRunOutput',
      'AgentRunStatus',
      'AgentThread',
      'AgentThreadRoot',
      'AgentThreadViewport',
      'AgentThreadMessages',
      'AgentThreadMessage',
      'AgentThreadAnnouncer',
      'AgentThreadComposer',
      'MessageComposer',
    ]);
  });
});
