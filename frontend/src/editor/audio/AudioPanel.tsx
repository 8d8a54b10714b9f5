/** The left column's audio tab (issue 16): music library, voice-over, the document's audio and the whole mix. */
import { Collapse } from 'antd';
import { useTranslation } from 'react-i18next';
import { DocumentAudio } from './DocumentAudio';
import { MixSettings } from './MixSettings';
import { MusicLibrary } from './MusicLibrary';
import { VoiceRecorder } from './VoiceRecorder';

export function AudioPanel() {
  const { t } = useTranslation();
  return (
    <div data-testid="audio-panel">
      <Collapse
        size="small"
        defaultActiveKey={['music', 'voice', 'items', 'mix']}
        items={[
          { key: 'music', label: t('audioPanel.music'), children: <MusicLibrary /> },
          { key: 'voice', label: t('audioPanel.voice'), children: <VoiceRecorder /> },
          { key: 'items', label: t('audioPanel.items'), children: <DocumentAudio /> },
          { key: 'mix', label: t('mix.section'), children: <MixSettings /> },
        ]}
      />
    </div>
  );
}
