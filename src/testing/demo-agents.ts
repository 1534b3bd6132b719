/** The ready-made agents of the mock service: one for each situation a console has to handle. */
import { manyEvents, runFailedEvent, textEvents } from './mock-events.js';
import type { MockAgentDefinition, MockRunRequest } from './mock-agent-types.js';
import { helpdeskTools, intakeTools, jiraTools } from './demo-tools.js';

/**
 * The answer of the demo chat agents, computed from the whole history: it names the first question
 * and counts the turns, so a conversation visibly carries its context.
 */
export function conversationAnswer(request: MockRunRequest): string {
  const questions = request.messages.filter((message) => message.role === 'USER');
  const answers = request.messages.filter((message) => message.role === 'GLEAN_AI');
  const first = questions[0]?.text ?? '';
  const last = questions.at(-1)?.text ?? '';
  const context =
    questions.length <= 1
      ? `You asked "${last}": this is turn 1 of our conversation.`
      : `This is turn ${questions.length}, with ${answers.length} earlier ${answers.length === 1 ? 'answer' : 'answers'} in the history: your first question was "${first}", and now you ask "${last}".`;
  return (
    `Hello! I can help with that. ${context} Here is a short summary: the request was ` +
    'understood, three sources were checked, and the answer is ready for review.'
  );
}

/** The ready-made agents (used by Storybook and demos). */
export const demoAgents: MockAgentDefinition[] = createDemoAgents();

function createDemoAgents(): MockAgentDefinition[] {
  return [
    ...formDemoAgents(),
    ...chatDemoAgents(),
    ...connectionDemoAgents(),
    ...failureDemoAgents(),
    ...edgeDemoAgents(),
    ...durableDemoAgents(),
  ];
}

/** A paragraph of deltas that starts with `subject`. */
function paragraph(subject: string) {
  return textEvents(
    `${subject} Here is a short summary: the request was understood, ` +
      'three sources were checked, and the answer is ready for review.',
  );
}

/** The agent started by an input form. */
function formDemoAgents(): MockAgentDefinition[] {
  return [
    {
      agent: {
        agent_id: 'form-agent',
        name: 'Project intake',
        description: 'Started by an input form with every kind of field.',
        capabilities: { 'ap.io.messages': false, 'ap.io.streaming': true },
      },
      schemas: {
        input_schema: {
          type: 'object',
          properties: {
            title: {
              type: 'string',
              title: 'Title',
              description: 'A short name for the project.',
              maxLength: 80,
            },
            details: {
              type: 'string',
              title: 'Details',
              description: 'What should be done, and why.',
              format: 'textarea',
              maxLength: 4000,
            },
            budget: { type: 'number', title: 'Budget (EUR)', minimum: 0 },
            headcount: {
              type: 'integer',
              title: 'Headcount',
              default: 3,
              minimum: 1,
              maximum: 50,
            },
            urgent: { type: 'boolean', title: 'Urgent', default: false },
            priority: {
              type: 'string',
              title: 'Priority',
              enum: ['low', 'medium', 'high'],
              default: 'medium',
            },
            due_date: { type: 'string', title: 'Due date', format: 'date' },
            kickoff_at: {
              type: 'string',
              title: 'Kick-off',
              description: 'Date and time of the first meeting.',
              format: 'date-time',
            },
          },
          required: ['title', 'priority', 'due_date'],
        },
        output_schema: {},
        tools: intakeTools,
      },
      run: { events: paragraph('Thanks, the project intake is filed.') },
    },
  ];
}

/** The chat agents: their answer carries the conversation. */
function chatDemoAgents(): MockAgentDefinition[] {
  return [
    {
      agent: {
        agent_id: 'chat-agent',
        name: 'Helpdesk chat',
        description: 'A chat agent: it takes messages.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      schemas: { input_schema: {}, output_schema: {}, tools: helpdeskTools },
      run: { eventsFor: (request) => textEvents(conversationAnswer(request)) },
    },
    {
      agent: {
        agent_id: 'slow-chat-agent',
        name: 'Slow chat',
        description: 'A chat agent that writes one word every 250 ms: stop it mid-turn.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        eventsFor: (request) => textEvents(conversationAnswer(request)),
        delayMs: 250,
        firstEventDelayMs: 250,
      },
    },
  ];
}

/** Streams that take their time or lose their connection. */
function connectionDemoAgents(): MockAgentDefinition[] {
  return [
    {
      agent: {
        agent_id: 'slow-agent',
        name: 'Slow thinker',
        description: 'Waits 300 ms before each delta.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: { events: paragraph('Let me think about it.'), delayMs: 300, firstEventDelayMs: 300 },
    },
    {
      agent: {
        agent_id: 'flaky-agent',
        name: 'Flaky connection',
        description: 'Drops after 3 events once; a reconnect with Last-Event-ID resumes.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('The connection may drop.'),
        dropAfter: 3,
        dropTimes: 1,
        onReconnect: 'resume',
      },
    },
    {
      agent: {
        agent_id: 'restarting-agent',
        name: 'Restarting run',
        description: 'Drops after 3 events once; a reconnect starts over at id 1.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('Every reconnect starts a new run.'),
        dropAfter: 3,
        dropTimes: 1,
        onReconnect: 'restart',
      },
    },
  ];
}

/** Runs refused before they start (429, 422) or failing midway. */
function failureDemoAgents(): MockAgentDefinition[] {
  return [
    {
      agent: {
        agent_id: 'rate-limited-agent',
        name: 'Rate limited',
        description: 'The first run attempt answers 429 with Retry-After: 2.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: paragraph('Worth the wait.'),
        failFirst: { attempts: 1, status: 429, retryAfter: '2' },
      },
    },
    {
      agent: {
        agent_id: 'tool-auth-agent',
        name: 'Needs Jira',
        description: 'Its runs ask for tool authorization (422) until Jira and Confluence are.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      schemas: { input_schema: {}, output_schema: {}, tools: jiraTools },
      run: {
        events: paragraph('Jira is connected.'),
        failUntilAuthorized: ['jira-server', 'confluence-server'],
        failFirst: {
          attempts: Infinity,
          status: 422,
          legacyBody: {
            message: 'Authorize the Jira tool to run this agent.',
            authenticationSuggestions: [
              {
                toolName: 'jira',
                toolType: 'MCP',
                requestType: 'AUTHENTICATION_SUGGESTION',
                requestId: 'toolreq_jira_1',
                toolDisplayName: 'Jira',
                serverId: 'jira-server',
                toolCta: 'Authorize',
                actionPreview: { description: 'Read and create Jira issues.' },
                description: 'Read and create Jira issues.',
              },
              {
                toolName: 'confluence',
                toolType: 'MCP',
                requestType: 'AUTHENTICATION_SUGGESTION',
                requestId: 'toolreq_confluence_1',
                serverId: 'confluence-server',
              },
            ],
          },
          platformBody: {
            detail: 'Authorize the Jira tool to run this agent.',
            code: 'tools_unauthorized',
            authentication_suggestions: [
              { tool_name: 'Jira', server_id: 'jira-server' },
              { server_id: 'confluence-server' },
            ],
          },
        },
      },
    },
    {
      agent: {
        agent_id: 'failing-agent',
        name: 'Failing run',
        description: 'A few deltas, then the run fails.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: {
        events: [
          ...textEvents('Starting the analysis of the '),
          {
            ...runFailedEvent({
              code: 'internal_error',
              detail: 'The agent failed while calling a tool.',
            }),
            api: 'platform',
          },
          {
            event: 'message',
            data: {
              error: {
                message: 'The agent failed while calling a tool.',
                errorCode: 'AGENT_FAILED',
              },
            },
            api: 'rest-v1',
          },
        ],
      },
    },
  ];
}

/** A very long stream, and hostile text that must stay text. */
function edgeDemoAgents(): MockAgentDefinition[] {
  const xss = '<img src=x onerror=alert(1)>';
  const script = '<script>alert(1)</script>';
  const link = 'javascript:alert(1)';
  return [
    {
      agent: {
        agent_id: 'ten-thousand-agent',
        name: 'Ten thousand events',
        description: 'A run of 10,000 deltas.',
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      run: { events: manyEvents(10_000) },
    },
    {
      agent: {
        agent_id: 'xss-agent',
        name: `Hostile ${xss}`,
        description: `${script} ${link}`,
        capabilities: { 'ap.io.messages': true, 'ap.io.streaming': true },
      },
      schemas: {
        input_schema: {},
        output_schema: { title: script, description: xss },
        tools: [
          {
            tool_id: link,
            display_name: xss,
            type: 'ACTION',
            auth_type: 'OAUTH_USER',
            write_action_type: script,
            data_source: script,
          },
        ],
      },
      run: {
        events: textEvents(
          `Rendered as text, never as HTML: ${xss} ${script} [click me](${link}) ${link} done.`,
        ),
      },
    },
  ];
}

/**
 * The agents made for durable runs (`execution_mode: 'DURABLE'`; any agent takes one, these show
 * its situations). Their streams are the ordinary answer.
 */
function durableDemoAgents(): MockAgentDefinition[] {
  const chat = { 'ap.io.messages': true, 'ap.io.streaming': true };
  return [
    {
      agent: {
        agent_id: 'durable-agent',
        name: 'Long report',
        description: 'A durable run of about 6 s that writes its report while it runs.',
        capabilities: chat,
      },
      run: { eventsFor: (request) => textEvents(conversationAnswer(request)) },
      durable: {
        turns: [
          {
            runningMs: 6000,
            text:
              'Collecting the sources. Reading the three newest reports. Comparing their ' +
              'numbers. Writing the summary: the request was understood, three sources were ' +
              'checked, and the answer is ready for review.',
          },
        ],
      },
    },
    {
      agent: {
        agent_id: 'quiet-durable-agent',
        name: 'Quiet report',
        description: 'A durable run of about 4 s whose answer appears only when it succeeds.',
        capabilities: chat,
      },
      durable: {
        acceptAs: 'QUEUED',
        queuedMs: 1000,
        output: 'at-end',
        turns: [{ runningMs: 3000, text: 'The report is done: nothing was shown before the end.' }],
      },
    },
    {
      agent: {
        agent_id: 'approval-agent',
        name: 'Slack notifier',
        description: 'A durable run that pauses for one approval before it sends a message.',
        capabilities: chat,
      },
      durable: {
        turns: [
          {
            runningMs: 1500,
            text: 'I drafted the message and need your approval to send it.',
            approvals: [
              {
                displayName: 'Send Slack message to user',
                description: 'Glean will send a direct message in Slack to the current user.',
                toolId: '9f2b6c1d4e8a4b7c9d0e1f2a3b4c5d6e',
                arguments: { message: 'The weekly report is ready for review.' },
              },
            ],
          },
          { runningMs: 1500, text: 'Sent your Slack message.' },
        ],
      },
    },
    {
      agent: {
        agent_id: 'batch-approval-agent',
        name: 'Ticket triage',
        description:
          'A durable run that pauses for two approvals at once, one with a 10-minute deadline.',
        capabilities: chat,
      },
      durable: {
        turns: [
          {
            runningMs: 1500,
            text: 'Two actions need your approval.',
            approvals: [
              {
                displayName: 'Create Jira issue',
                description: 'Creates an issue in the SUPPORT project.',
                toolId: 'jira-create-issue',
                // An id above 2^53, as the model wrote it: JSON.parse would round it.
                arguments:
                  '{"project":"SUPPORT","summary":"Login fails after reset","parent_id":90071992547409931}',
              },
              {
                displayName: 'Email the customer',
                description: 'Sends an email from the support mailbox.',
                arguments: { to: 'customer@example.com', subject: 'We are on it' },
                expiresInMs: 10 * 60_000,
              },
            ],
          },
          { runningMs: 2000, text: 'Done: the approved actions ran.' },
        ],
      },
    },
  ];
}
