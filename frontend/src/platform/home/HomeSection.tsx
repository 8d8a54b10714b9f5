import { Card } from 'antd';
import type { ReactNode } from 'react';

export interface HomeSectionProps {
  title: ReactNode;
  /** The section's `data-testid`. */
  testId: string;
  /** Beside the title: a 'more' link. */
  extra?: ReactNode;
  children: ReactNode;
}

/** One titled block of the home page and the portal's home. */
export function HomeSection({ title, testId, extra, children }: HomeSectionProps) {
  return (
    <Card title={title} extra={extra} style={{ marginTop: 16 }} data-testid={testId}>
      {children}
    </Card>
  );
}
