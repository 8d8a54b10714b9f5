/** The shortcut sheet, opened with `?`: every key the editor answers. */
import { Modal, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The keys, as the sheet lists them (the i18n key of what each does; `keysText`: the keys are words, translated too). */
export const SHORTCUTS: { keys: string; action: string; keysText?: boolean }[] = [
  { keys: 'Delete / Backspace', action: 'delete' },
  { keys: '← ↑ → ↓', action: 'nudge' },
  { keys: 'Shift + ← ↑ → ↓', action: 'nudgeFar' },
  { keys: 'Ctrl + S', action: 'save' },
  { keys: 'Ctrl + C', action: 'copy' },
  { keys: 'Ctrl + V', action: 'paste' },
  { keys: 'Ctrl + D', action: 'duplicate' },
  { keys: 'Ctrl + Z', action: 'undo' },
  { keys: 'Ctrl + Shift + Z / Ctrl + Y', action: 'redo' },
  { keys: 'Ctrl + G', action: 'group' },
  { keys: 'Ctrl + Shift + G', action: 'ungroup' },
  { keys: 'doubleClick', action: 'editText', keysText: true },
  { keys: 'Esc', action: 'endEdit' },
  { keys: 'space', action: 'playPause', keysText: true },
  { keys: '?', action: 'sheet' },
];

export function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('editor.keys.title')} data-testid="shortcut-sheet">
      <Table
        size="small"
        pagination={false}
        rowKey="action"
        dataSource={SHORTCUTS}
        columns={[
          {
            title: t('editor.keys.keys'),
            dataIndex: 'keys',
            render: (k: string, row) => <Typography.Text keyboard>{row.keysText ? t(`editor.keys.${k}`) : k}</Typography.Text>,
          },
          { title: t('editor.keys.does'), dataIndex: 'action', render: (action: string) => t(`editor.keys.${action}`) },
        ]}
      />
    </Modal>
  );
}
