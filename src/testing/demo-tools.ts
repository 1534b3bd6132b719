/**
 * The tools of the demo agents (`ActionSummary` objects, sent with `include_tools=true`): one of
 * each type and write action, one not set up, and the ones that need the person's authorization.
 */

/** The company search every demo agent with tools has (each list gets its own copy). */
const companySearch = {
  tool_id: 'company-search',
  display_name: 'Company search',
  type: 'RETRIEVAL',
  auth_type: 'NONE',
  is_setup_finished: true,
  data_source: 'company',
};

/** The tools of the helpdesk chat: more than a console shows open (its list is collapsed). */
export const helpdeskTools: Record<string, unknown>[] = [
  { ...companySearch },
  {
    tool_id: 'web-search',
    display_name: 'Web search',
    type: 'RETRIEVAL',
    auth_type: 'NONE',
    is_setup_finished: true,
    data_source: 'world',
  },
  {
    tool_id: 'zendesk-tickets',
    display_name: 'Zendesk tickets',
    type: 'RETRIEVAL',
    auth_type: 'API_KEY',
    is_setup_finished: true,
    data_source: 'company',
  },
  {
    tool_id: 'servicenow-open-incident',
    display_name: 'Open a ServiceNow incident',
    type: 'ACTION',
    auth_type: 'OAUTH_ADMIN',
    write_action_type: 'REDIRECT',
    is_setup_finished: true,
    data_source: 'company',
  },
  {
    tool_id: 'gmail-send',
    display_name: 'Send an email',
    type: 'ACTION',
    auth_type: 'DWD',
    write_action_type: 'EXECUTION',
    is_setup_finished: true,
    data_source: 'company',
  },
  {
    tool_id: 'pagerduty-page',
    display_name: 'Page the on-call engineer',
    type: 'ACTION',
    auth_type: 'BASIC_AUTH',
    write_action_type: 'EXECUTION',
    is_setup_finished: false,
    data_source: 'company',
  },
];

/**
 * The tools of the agent whose runs need Jira and Confluence authorized (`tool-auth-agent`): the
 * person's own sign-in (`OAUTH_USER`) for both. Their tool servers are `jira-server` and
 * `confluence-server` (what its 422 names); the service does not say so in the tool list.
 */
export const jiraTools: Record<string, unknown>[] = [
  {
    tool_id: 'jira-create-issue',
    display_name: 'Create Jira issue',
    type: 'ACTION',
    auth_type: 'OAUTH_USER',
    write_action_type: 'EXECUTION',
    is_setup_finished: true,
    data_source: 'company',
  },
  {
    tool_id: 'confluence-search',
    display_name: 'Confluence pages',
    type: 'RETRIEVAL',
    auth_type: 'OAUTH_USER',
    is_setup_finished: true,
    data_source: 'company',
  },
  { ...companySearch },
];

/**
 * The tool servers of {@link jiraTools} by tool id: what an app that knows its tenant's tools
 * gives as `toolServerId` (the service has no such mapping).
 */
export const demoToolServers: Readonly<Record<string, string>> = {
  'jira-create-issue': 'jira-server',
  'confluence-search': 'confluence-server',
};

/** The form agent's tools: what it reads, and a write action that opens the service's page. */
export const intakeTools: Record<string, unknown>[] = [
  { ...companySearch },
  {
    tool_id: 'asana-create-project',
    display_name: 'Create an Asana project',
    type: 'ACTION',
    auth_type: 'OAUTH_ADMIN',
    write_action_type: 'REDIRECT',
    is_setup_finished: true,
    data_source: 'company',
  },
];
