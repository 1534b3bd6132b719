import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import {
  AgentErrorMessage,
  AgentHttpError,
  AgentInputError,
  AgentNetworkError,
  formFieldsFromSchema,
} from 'agent-console-kit';
import 'agent-console-kit/styles.css';

const url = 'https://agents.example.com/agents/form-agent/runs';

function httpError(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new AgentHttpError({
    status,
    url,
    method: 'POST',
    body,
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
  });
}

const meta = {
  title: 'Components/AgentErrorMessage',
  component: AgentErrorMessage,
  args: {
    error: httpError(401, { message: 'Invalid token' }),
    agentId: 'form-agent',
  },
} satisfies Meta<typeof AgentErrorMessage>;
export default meta;
type Story = StoryObj<typeof meta>;

/** 401: the token is missing or no longer valid. */
export const Unauthorized: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toBeVisible();
  },
};

/** 403: the token lacks the permission. */
export const Forbidden: Story = {
  args: { error: httpError(403, { message: 'Forbidden' }) },
};

/** 404: no agent with that id. */
export const NotFound: Story = {
  args: { error: httpError(404, { message: 'Agent not found' }), agentId: 'no-such-agent' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent('no-such-agent');
  },
};

/** 422: tools the person must authorize first. */
export const ToolAuthorization: Story = {
  args: {
    error: httpError(422, {
      message: 'Tools need authorization',
      authenticationSuggestions: [{ toolName: 'calendar' }, { toolName: 'mailbox' }],
    }),
  },
};

/** 429 with `Retry-After`: when to try again, and a retry button. */
export const RateLimited: Story = {
  args: {
    error: httpError(429, { message: 'Too many requests' }, { 'retry-after': '30' }),
    onRetry: fn(),
  },
  play: async ({ args, canvasElement }) => {
    await userEvent.click(within(canvasElement).getByRole('button'));
    await expect(args.onRetry).toHaveBeenCalled();
  },
};

/** 500 with a problem detail and a request id. */
export const ServerError: Story = {
  args: {
    error: httpError(
      500,
      {
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'The agent crashed.',
      },
      { 'x-request-id': 'req-1234' },
    ),
  },
};

/** A 502 answered by a proxy with an HTML page. */
export const BadGatewayHtml: Story = {
  args: {
    error: new AgentHttpError({
      status: 502,
      url,
      method: 'POST',
      body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
      headers: new Headers({ 'content-type': 'text/html' }),
    }),
    onRetry: fn(),
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('h1')).toBeNull();
  },
};

/** The service could not be reached. */
export const NetworkError: Story = {
  args: {
    error: new AgentNetworkError('Failed to fetch', { url }),
    onRetry: fn(),
  },
};

/** Required fields left empty. */
export const InputError: Story = {
  args: {
    error: new AgentInputError('Fill in the required fields.', {
      missingFields: ['title', 'due_date'],
    }),
    fields: formFieldsFromSchema({
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title' },
        due_date: { type: 'string', title: 'Due date', format: 'date' },
      },
      required: ['title', 'due_date'],
    }),
  },
};

/** In the dark theme. */
export const DarkTheme: Story = {
  args: { error: httpError(429, { message: 'Slow down' }, { 'retry-after': '5' }), onRetry: fn() },
  globals: { theme: 'dark' },
};

/** In a 320 px wide container. */
export const NarrowContainer: Story = {
  args: {
    error: httpError(422, {
      message: 'Tools need authorization',
      authenticationSuggestions: [{ toolName: 'a-tool-with-a-rather-long-name' }],
    }),
  },
  render: (args) => (
    <div style={{ width: 320 }}>
      <AgentErrorMessage {...args} />
    </div>
  ),
};
