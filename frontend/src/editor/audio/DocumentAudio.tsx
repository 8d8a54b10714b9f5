/** The document's audio (music and voice-overs) as a list: a click selects an item and shows its properties. */
import { Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { formatTime } from '@/editor/timeline/timelineMath';
import { selectAudioIndex } from './AudioItemProps';
import { useLibraryName } from '@/components/material/libraryName';

export function DocumentAudio() {
  const { t } = useTranslation();
  const named = useLibraryName();
  const dispatch = useEditorDispatch();
  const audio = useEditorSelector((s) => s.doc.audio);
  const selected = useEditorSelector(selectAudioIndex);
  if (audio.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audioPanel.noItems')} />;
  return (
    <div role="list">
      {audio.map((item, index) => (
        <div
          key={index}
          role="listitem"
          onClick={() => dispatch(a.selectAudio(index))}
          data-testid={`doc-audio-${index}`}
          aria-selected={selected === index}
          style={{ display: 'flex', alignItems: 'center', cursor: 'pointer', padding: '6px', borderBottom: '1px solid #f0f0f0', background: selected === index ? '#e6f4ff' : undefined }}
        >
          <Tag color={item.type === 'voice' ? 'blue' : 'green'}>{t(item.type === 'voice' ? 'audioPanel.voiceTag' : 'audioPanel.musicTag')}</Tag>
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={named(item.name)}>
            {named(item.name)}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 6 }}>
            {formatTime(item.startTime, true)}–{formatTime(item.endTime, true)}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
}
