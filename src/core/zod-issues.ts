import type * as z from 'zod/mini';
import type { AgentValidationIssue } from './errors.js';

/**
 * zod's issues as an {@link AgentValidationError}'s: the path joined with dots, zod's bare
 * "Invalid input" said more plainly. Only the modules that load zod's runtime on demand use it
 * (the durable run wire, the explanation of a refused answer), so it imports nothing a page has.
 */
export function validationIssuesOf(issues: readonly z.core.$ZodIssue[]): AgentValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message === 'Invalid input' ? describeIssue(issue) : issue.message,
  }));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  return issue.code;
}
