/** The editor's left column: the material library or the shapes. */
import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PickMaterial } from './PickMaterial';
import { ShapePanel } from './ShapePanel';

type Pane = 'materials' | 'shapes';

export function LeftPanel() {
  const { t } = useTranslation();
  const [pane, setPane] = useState<Pane>('materials');
  return (
    <>
      <Segmented<Pane>
        block
        value={pane}
        onChange={setPane}
        options={[
          { value: 'materials', label: t('editor.left.materials') },
          { value: 'shapes', label: t('editor.left.shapes') },
        ]}
        data-testid="left-pane"
        style={{ marginBottom: 8 }}
      />
      {pane === 'materials' ? <PickMaterial /> : <ShapePanel />}
    </>
  );
}
