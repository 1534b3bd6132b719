import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: { name: '@storybook/react-vite', options: {} },
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: [
    // Real mode (STORYBOOK_AGENT_BASE_URL): msw is not started at all, so the addon that would
    // register its service worker is left out too.
    ...(process.env['STORYBOOK_AGENT_BASE_URL'] ? [] : ['msw-storybook-addon']),
    '@storybook/addon-docs',
    '@storybook/addon-a11y',
    '@storybook/addon-vitest',
  ],
  staticDirs: ['./public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // No onboarding checklist: the "Getting started" page is the way in.
  features: { sidebarOnboardingChecklist: false },
  typescript: { reactDocgen: 'react-docgen-typescript' },
  // "Across devices" runs the dev backend's store in the page (PGlite): Vite must not pre-bundle
  // it, or its WebAssembly and data files are not found next to it.
  viteFinal: (vite) => ({
    ...vite,
    optimizeDeps: {
      ...vite.optimizeDeps,
      exclude: [...(vite.optimizeDeps?.exclude ?? []), '@electric-sql/pglite'],
    },
  }),
};
export default config;
