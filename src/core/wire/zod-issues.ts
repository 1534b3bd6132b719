import type * as z from 'zod/mini';
import { AgentValidationError, type AgentValidationIssue } from './errors.js';

/**
 * `body` checked by `schema`; a mismatch is an {@link AgentValidationError} naming the paths. Only
 * the modules that load zod's runtime on demand use it (the durable run wire, the explanation of a
 * refused answer): a page checks with the checks zod's compiler wrote.
 */
export function parseWith<Schema extends z.ZodMiniType>(
  schema: Schema,
  body: unknown,
  what: string,
): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new AgentValidationError(what, validationIssuesOf(result.error.issues), body);
}

/** zod's issues as an {@link AgentValidationError}'s: the path joined with dots, zod's bare "Invalid input" said more plainly. */
function validationIssuesOf(issues: readonly z.core.$ZodIssue[]): AgentValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message === 'Invalid input' ? describeIssue(issue) : issue.message,
  }));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  return issue.code;
}
