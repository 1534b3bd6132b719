/**
 * The msw 2 adapter of the mock agent service: every request to a route of the service is answered
 * by the same `service.handle(request)` the node:http adapter uses, so Storybook in the browser
 * gets the same bytes. Everything else passes through. This is the only module importing msw
 * (an optional peer dependency).
 */
import { http } from 'msw';
import type { HttpHandler } from 'msw';
import { createMockAgentService } from './mock-agent-service.js';
import type { MockAgentService, MockAgentServiceOptions } from './mock-agent-types.js';

/** Options of {@link mockAgentHandlers}. */
export interface MockAgentHandlersOptions {
  /**
   * Answer only requests whose URL starts with this (an origin, optionally with a path prefix,
   * e.g. `http://mock.test` or `https://host/proxy`).
   * @default undefined (any origin: only the path decides)
   */
  baseUrl?: string;
}

function isService(value: MockAgentService | MockAgentServiceOptions): value is MockAgentService {
  return typeof (value as Partial<MockAgentService>).handle === 'function';
}

/**
 * msw handlers serving the mock agent service.
 * @param serviceOrOptions a service (to reach its records and injections) or the options of a new one
 */
export function mockAgentHandlers(
  serviceOrOptions: MockAgentService | MockAgentServiceOptions = {},
  options: MockAgentHandlersOptions = {},
): HttpHandler[] {
  const service = isService(serviceOrOptions)
    ? serviceOrOptions
    : createMockAgentService(serviceOrOptions);
  const baseUrl = options.baseUrl?.replace(/\/+$/, '');
  return [
    http.all('*', ({ request }) => {
      if (baseUrl !== undefined) {
        const url = request.url;
        const next = url.charAt(baseUrl.length);
        // Not ours: fall through to the next handler (passthrough() would skip the other
        // handlers, e.g. another story's service on a docs page, and go to the network).
        if (!url.startsWith(baseUrl) || (next !== '' && next !== '/' && next !== '?')) {
          return undefined;
        }
      }
      if (!service.matches(request.url)) return undefined;
      return service.handle(request);
    }),
  ];
}
