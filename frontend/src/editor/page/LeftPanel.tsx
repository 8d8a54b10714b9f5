/** The editor's left column: the material library, the shapes or the audio. */
import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AudioPanel } from '@/editor/audio/AudioPanel';
import { PickMaterial } from './PickMaterial';
import { ShapePanel } from './ShapePanel';

type Pane = 'materials' | 'shapes' | 'audio';

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
          { value: 'audio', label: t('editor.left.audio') },
        ]}
        data-testid="left-pane"
        style={{ marginBottom: 8 }}
      />
      {pane === 'materials' ? <PickMaterial /> : pane === 'shapes' ? <ShapePanel /> : <AudioPanel />}
    </>
  );
}
