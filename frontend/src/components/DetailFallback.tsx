/** What a page of one item shows until the item is there: a spinner while it loads, else its way back above the refusal. */
import { Result, Spin } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

export function DetailFallback({ refusal, back, style, testId }: { refusal: string | null; back: ReactNode; style: CSSProperties; testId: string }) {
  if (refusal === null) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  return (
    <div style={style}>
      {back}
      <Result status="warning" title={refusal} data-testid={testId} />
    </div>
  );
}
