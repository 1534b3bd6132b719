/**
 * What the service refuses in a run request, as the real one does: the platform API's body rules
 * (a 400 problem naming each field, `errors[].code` from the service's list) and the form-agent
 * rule of both generations (an input that lacks a form field fails the run with a bare 500).
 */
import type { MockProblem } from './mock-events.js';
import type { MockAgentSchemas } from './mock-agent-types.js';

const platformRunFields = new Set(['input', 'messages', 'metadata', 'stream', 'execution_mode']);
const platformRoles = new Set(['USER', 'GLEAN_AI']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The problem of a platform run body (`POST /api/agents/{id}/runs`), or undefined when valid.
 * `durable`: whether the deployment has durable runs (`'ignored'`: it takes DURABLE as
 * REQUEST_BOUND).
 */
export function validatePlatformRun(
  body: unknown,
  durable: boolean | 'ignored' = true,
): MockProblem | undefined {
  if (!isPlainObject(body)) {
    return {
      code: 'invalid_request',
      detail: 'The request body must be a JSON object.',
      errors: [{ pointer: '', detail: 'Expected a JSON object.', code: 'invalid_parameter' }],
    };
  }
  const unknownFields = Object.keys(body).filter((key) => !platformRunFields.has(key));
  if (unknownFields.length > 0) {
    return {
      code: 'invalid_request',
      detail: `Unknown field${unknownFields.length > 1 ? 's' : ''}: ${unknownFields.join(', ')}.`,
      errors: unknownFields.map((field) => ({
        pointer: `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`,
        detail: 'This field is not allowed.',
        code: 'invalid_parameter',
      })),
    };
  }
  if (body.messages === undefined && body.input === undefined) {
    return {
      code: 'missing_required_field',
      detail: 'The request must carry messages or input.',
      errors: [
        {
          pointer: '/messages',
          detail: 'messages or input is required.',
          code: 'missing_required_field',
        },
      ],
    };
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') {
    return {
      code: 'invalid_request',
      detail: 'stream must be a boolean.',
      errors: [{ pointer: '/stream', detail: 'Expected a boolean.', code: 'invalid_parameter' }],
    };
  }
  if (body.execution_mode === 'DURABLE' && durable === true) {
    const refused = refusedWithDurable(body);
    if (refused) return refused;
  } else if (
    body.execution_mode !== undefined &&
    body.execution_mode !== 'REQUEST_BOUND' &&
    !(body.execution_mode === 'DURABLE' && durable === 'ignored')
  ) {
    return executionModeProblem(body.execution_mode);
  }
  if (body.input !== undefined && !isPlainObject(body.input)) {
    return {
      code: 'invalid_request',
      detail: 'input must be an object.',
      errors: [{ pointer: '/input', detail: 'Expected an object.', code: 'invalid_parameter' }],
    };
  }
  if (body.messages !== undefined) return validateMessages(body.messages);
  return undefined;
}

/** What DURABLE does not take: `stream: true`, `metadata.chat_session_id`. */
function refusedWithDurable(body: Record<string, unknown>): MockProblem | undefined {
  if (body.stream === true) {
    const detail = 'DURABLE requires stream to be false or omitted.';
    return {
      code: 'invalid_parameter',
      detail,
      errors: [{ pointer: '/stream', detail, code: 'invalid_parameter' }],
    };
  }
  if (isPlainObject(body.metadata) && 'chat_session_id' in body.metadata) {
    const detail = 'DURABLE does not accept metadata.chat_session_id.';
    return {
      code: 'invalid_parameter',
      detail,
      errors: [{ pointer: '/metadata/chat_session_id', detail, code: 'invalid_parameter' }],
    };
  }
  return undefined;
}

/**
 * A deployment without durable runs answers `DURABLE` with a 400 on `execution_mode`; any other
 * unknown value is refused the same way.
 */
function executionModeProblem(mode: unknown): MockProblem {
  const durable = mode === 'DURABLE';
  const detail = durable
    ? 'execution_mode DURABLE is not available on this deployment.'
    : 'execution_mode must be REQUEST_BOUND or DURABLE.';
  return {
    code: 'invalid_parameter',
    detail,
    errors: [{ pointer: '/execution_mode', detail, code: 'invalid_parameter' }],
  };
}

function validateMessages(messages: unknown): MockProblem | undefined {
  if (!Array.isArray(messages) || messages.length === 0) {
    return {
      code: 'invalid_request',
      detail: 'messages must hold at least one message.',
      errors: [
        { pointer: '/messages', detail: 'Expected a non-empty array.', code: 'invalid_parameter' },
      ],
    };
  }
  const errors: NonNullable<MockProblem['errors']> = [];
  messages.forEach((message: unknown, index: number) => {
    const role = isPlainObject(message) ? message.role : undefined;
    if (typeof role !== 'string' || !platformRoles.has(role)) {
      errors.push({
        pointer: `/messages/${index}/role`,
        detail: 'role must be USER or GLEAN_AI.',
        code: 'invalid_parameter',
      });
    }
    const content = isPlainObject(message) ? message.content : undefined;
    if (!Array.isArray(content) || content.length === 0) {
      errors.push({
        pointer: `/messages/${index}/content`,
        detail: 'content must hold at least one block.',
        code: 'invalid_parameter',
      });
    }
  });
  return errors.length > 0
    ? { code: 'invalid_request', detail: 'Invalid messages.', errors }
    : undefined;
}

/**
 * The form fields (`input_schema.properties`) missing from a run's `input`. The service answers
 * such a run with a bare 500 on both generations: every field must be present, empty or not.
 */
export function missingFormFields(schemas: MockAgentSchemas, input: unknown): string[] {
  const properties = schemas.input_schema.properties;
  if (!isPlainObject(properties)) return [];
  const given = isPlainObject(input) ? input : {};
  return Object.keys(properties).filter((key) => !(key in given));
}
