/** The way back above a page's content: an arrow and where it leads (a plain link, not a button inside one). */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Space } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function BackLink({ to, testId, children }: { to: string; testId: string; children: ReactNode }) {
  return (
    <Link to={to} data-testid={testId} style={{ display: 'inline-block', marginBottom: 8 }}>
      <Space size={6}>
        <ArrowLeftOutlined />
        {children}
      </Space>
    </Link>
  );
}
