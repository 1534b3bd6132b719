import type { ReactNode } from 'react';
import 'agent-console-kit/styles.css';
import { Providers } from './providers';

export const metadata = { title: 'Agent console' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
