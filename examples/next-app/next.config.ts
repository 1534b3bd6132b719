import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // As create-next-app 16 sets it: dynamic data (params, the agent) needs a Suspense boundary,
  // which app/agents/[agentId]/loading.tsx gives.
  cacheComponents: true,
  partialPrefetching: true,
};

export default nextConfig;
