import { Modal, type ModalProps } from 'antd';
import { useRef, useState } from 'react';
import Draggable, { type DraggableBounds, type DraggableData, type DraggableEvent } from 'react-draggable';
import { useTranslation } from 'react-i18next';

/** Class of the title bar, the only part that starts a drag (the body keeps its own clicks and drags). */
const HANDLE = 'rf-popup-handle';

/**
 * Returns how far the dialog may move from where it started this drag so that its box stays inside
 * the window: `box` is where it is now, `at` the offset it already has.
 */
export function windowBounds(box: DOMRect, at: { x: number; y: number }, win: { width: number; height: number }): DraggableBounds {
  return { left: at.x - box.left, right: at.x + win.width - box.right, top: at.y - box.top, bottom: at.y + win.height - box.bottom };
}

/**
 * The shared draggable popup (spec platform §2 'shared screens'): an antd Modal moved by its title
 * bar and kept inside the window, for dialogs that sit over a work surface the user wants to see.
 * Takes every Modal prop except `modalRender`, which it uses.
 */
export function DraggablePopup({ title, ...props }: Omit<ModalProps, 'modalRender'>) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [bounds, setBounds] = useState<DraggableBounds>();
  const onStart = (_e: DraggableEvent, ui: DraggableData) => {
    const el = box.current;
    if (!el) return;
    const { clientWidth, clientHeight } = document.documentElement;
    setBounds(windowBounds(el.getBoundingClientRect(), ui, { width: clientWidth, height: clientHeight }));
  };
  return (
    <Modal
      {...props}
      title={
        <div className={HANDLE} title={t('shared.dragHint')} data-testid="popup-handle" style={{ cursor: 'move', userSelect: 'none' }}>
          {title}
        </div>
      }
      modalRender={(dialog) => (
        <Draggable nodeRef={box} handle={`.${HANDLE}`} bounds={bounds} onStart={onStart}>
          <div ref={box}>{dialog}</div>
        </Draggable>
      )}
    />
  );
}
