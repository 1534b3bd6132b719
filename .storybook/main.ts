import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: { name: '@storybook/react-vite', options: {} },
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: [
    'msw-storybook-addon',
    '@storybook/addon-docs',
    '@storybook/addon-a11y',
    '@storybook/addon-vitest',
  ],
  staticDirs: ['./public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // No onboarding checklist: the "Getting started" page is the way in.
  features: { sidebarOnboardingChecklist: false },
  typescript: { reactDocgen: 'react-docgen-typescript' },
};
export default config;
