/** The token the test page's client sends: the tests check that no storage ever holds it. */
export const pageToken = 'durable-chromium-token-not-for-storage';
