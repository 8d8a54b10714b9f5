import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button } from 'antd';

export interface MoveButtonsProps {
  /** The row's place and how many rows there are. */
  index: number;
  count: number;
  onMove: (index: number, by: -1 | 1) => void;
  labels: { up: string; down: string };
  /** The test ids of the two buttons. */
  testIds: { up: string; down: string };
  disabled?: boolean;
}

/** Up and down arrows that move a row of an ordered list one place; the first cannot go up, the last not down. */
export function MoveButtons({ index, count, onMove, labels, testIds, disabled = false }: MoveButtonsProps) {
  return (
    <>
      <Button
        size="small"
        type="text"
        icon={<ArrowUpOutlined />}
        aria-label={labels.up}
        title={labels.up}
        disabled={index === 0 || disabled}
        data-testid={testIds.up}
        onClick={() => onMove(index, -1)}
      />
      <Button
        size="small"
        type="text"
        icon={<ArrowDownOutlined />}
        aria-label={labels.down}
        title={labels.down}
        disabled={index === count - 1 || disabled}
        data-testid={testIds.down}
        onClick={() => onMove(index, 1)}
      />
    </>
  );
}
