import { BulbOutlined } from '@ant-design/icons';
import { Button, Card, Space } from 'antd';
import { useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { DIALOG_WIDTH } from './dialogWidth';

/** The pages that have a beginner tip; each names its steps under `shared.beginnerTip.<id>`. */
export type TipId = 'editor' | 'workbench';

type TipStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Returns the storage key remembering that `userId` has seen tip `tip`. */
export function tipKey(userId: string, tip: TipId): string {
  return `reelforge.tip.${userId}.${tip}`;
}

/** Returns the storage key remembering that `userId` wants no more tips. */
export function tipsOffKey(userId: string): string {
  return `reelforge.tips-off.${userId}`;
}

/**
 * Returns whether tip `tip` is still to show to `userId`; false when storage cannot be read, since
 * a tip whose dismissal cannot be remembered would come back on every visit.
 */
export function tipDue(userId: string, tip: TipId, storage: TipStorage | undefined = globalThis.localStorage): boolean {
  try {
    return storage !== undefined && storage.getItem(tipKey(userId, tip)) === null && storage.getItem(tipsOffKey(userId)) === null;
  } catch {
    return false;
  }
}

/** Writes `key` as done; storage failures (quota, private mode) only mean the tip may show again. */
function remember(key: string, storage: TipStorage | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(key, '1');
  } catch {
    // Nothing to do: the tip shows again next visit.
  }
}

/** Places the card in the window's bottom right, under antd's menus, messages and dialogs (z-index 1000 up). */
const PLACE = { position: 'fixed', right: 24, bottom: 24, width: DIALOG_WIDTH, zIndex: 900, pointerEvents: 'none' } as const;

/** The buttons take clicks again inside the click-through card. */
const CLICKABLE = { pointerEvents: 'auto' } as const;

/**
 * The beginner tip popup (spec platform §2 'shared screens'): a few lines on how a page works, shown
 * to each user once per page until 'got it', or never again after 'don't show tips again'. It is a
 * corner card, not a modal, and only its buttons take clicks: what lies under its text stays usable.
 */
export function BeginnerTip({ tip }: { tip: TipId }) {
  const { t } = useTranslation();
  const titleId = useId();
  const userId = useAppSelector((s) => s.user.id) ?? 'guest';
  const [open, setOpen] = useState(() => tipDue(userId, tip));
  if (!open) return null;
  const close = (key: string) => {
    remember(key);
    setOpen(false);
  };
  const steps: unknown = t(`shared.beginnerTip.${tip}`, { returnObjects: true });
  return createPortal(
    // An aside, not a dialog: it asks nothing and the page's own dialogs stay the only ones.
    <aside aria-labelledby={titleId} data-testid={`beginner-tip-${tip}`} style={PLACE}>
      <Card
        size="small"
        title={
          <span id={titleId}>
            <BulbOutlined style={{ color: '#faad14', marginInlineEnd: 8 }} />
            {t('shared.beginnerTip.title')}
          </span>
        }
        styles={{ root: { boxShadow: '0 6px 16px rgba(0, 0, 0, 0.12)' } }}
      >
        <ol style={{ margin: '0 0 12px', paddingInlineStart: 20 }}>
          {(Array.isArray(steps) ? steps : []).map((step) => (
            <li key={String(step)}>{String(step)}</li>
          ))}
        </ol>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button size="small" type="text" style={CLICKABLE} onClick={() => close(tipsOffKey(userId))} data-testid="tip-never">
            {t('shared.beginnerTip.noMore')}
          </Button>
          <Button size="small" type="primary" style={CLICKABLE} onClick={() => close(tipKey(userId, tip))} data-testid="tip-got-it">
            {t('shared.beginnerTip.gotIt')}
          </Button>
        </Space>
      </Card>
    </aside>,
    document.body,
  );
}
