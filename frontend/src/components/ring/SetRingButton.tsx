import { BellOutlined } from '@ant-design/icons';
import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskStatus } from '@/api/videoTask';
import { RingModal, type RingWork } from './RingModal';

export interface SetRingButtonProps {
  work: RingWork;
  /** The work's render status: the button shows only for a finished one (10). */
  status: number;
  size?: ButtonProps['size'];
  type?: ButtonProps['type'];
}

/** "设为视频彩铃" on a finished work, opening the ring-setting modal. */
export function SetRingButton({ work, status, size = 'small', type }: SetRingButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (status !== TaskStatus.success) return null;
  return (
    <>
      <Button size={size} type={type} icon={<BellOutlined />} onClick={() => setOpen(true)} data-testid={`set-ring-${work.id}`}>
        {t('ring.setAction')}
      </Button>
      <RingModal work={open ? work : null} onClose={() => setOpen(false)} />
    </>
  );
}
