import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

// This folder is the app's root. Without it, Next.js takes the folder of the outermost lockfile
// it finds above (here the repository's) for the workspace root, and warns.
const appRoot = fileURLToPath(new URL('.', import.meta.url));

const nextConfig: NextConfig = {
  // As create-next-app 16 sets it: dynamic data (params, the agent) needs a Suspense boundary,
  // which app/agents/[agentId]/loading.tsx gives.
  cacheComponents: true,
  partialPrefetching: true,
  turbopack: { root: appRoot },
  // The store's databases load their own files (PGlite its WebAssembly): not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  outputFileTracingRoot: appRoot,
};

export default nextConfig;
