/**
 * The music library of the audio tab: the starter tracks (system category 6001) or my uploaded
 * audio, each with a preview button (one track plays at a time) and an add button that lays it
 * under the whole document.
 */
import { PauseCircleOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Segmented, Spin, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_CATEGORIES, useMaterials, useMaterialState, type Material, type MaterialFilter } from '@/api/material';
import { useLibraryName } from '@/components/material/libraryName';
import { MaterialUpload } from '@/components/material/MaterialUpload';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectDuration } from '@/editor/state/selectors';
import { formatTime } from '@/editor/timeline/timelineMath';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { musicItem } from './audioCommands';

/** The starter library's music category (docs/materials.md). */
export const MUSIC_CATEGORY = 6001;

type Source = 'system' | 'mine';

const ROW: CSSProperties = { display: 'flex', alignItems: 'center', gap: 6, padding: '6px 0', borderBottom: '1px solid #f0f0f0' };

const FILTERS: Record<Source, MaterialFilter> = {
  system: { source: 'default', categoryId: MUSIC_CATEGORY, type: 'audio' },
  mine: { source: 'user', categoryId: ALL_CATEGORIES, type: 'audio' },
};

/** A preview player: one `<audio>` for the list, playing the chosen track or nothing. */
function usePreview() {
  const ref = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (playing === null) el.pause();
    else void el.play().catch(() => setPlaying(null));
  }, [playing]);
  return { ref, playing, setPlaying };
}

/** Follows an upload still being probed; the list reloads when it is done. */
function Probing({ id }: { id: string }) {
  useMaterialState(id, true);
  return null;
}

export function MusicLibrary() {
  const { t } = useTranslation();
  const named = useLibraryName();
  const dispatch = useEditorDispatch();
  const length = useEditorSelector(selectDuration);
  const [source, setSource] = useState<Source>('system');
  const list = useMaterials(FILTERS[source]);
  const items = useMemo(() => (list.data?.pages.flatMap((p) => p.dataList) ?? []).filter((m) => m.type === 'audio'), [list.data]);
  const preview = usePreview();
  const current = items.find((m) => m.id === preview.playing);
  const add = (m: Material) => dispatch(a.addAudio(musicItem(m, length)));

  return (
    <div data-testid="music-library" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Segmented<Source>
        size="small"
        block
        value={source}
        onChange={(s) => {
          preview.setPlaying(null);
          setSource(s);
        }}
        options={[
          { value: 'system', label: t('audioPanel.system') },
          { value: 'mine', label: t('audioPanel.mine') },
        ]}
        data-testid="music-source"
      />
      {source === 'mine' ? <MaterialUpload size="small" /> : null}
      <audio ref={preview.ref} src={current?.url} onEnded={() => preview.setPlaying(null)} data-testid="music-preview" />
      {list.isError ? (
        <Typography.Text type="danger">{t('material.loadFailed')}</Typography.Text>
      ) : (
        <Spin spinning={list.isLoading}>
          {!list.isLoading && items.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audioPanel.noMusic')} />
          ) : (
            <div role="list">
              {items.map((m) => {
                const ready = m.state === 'ready';
                const on = preview.playing === m.id;
                const name = named(m.materialName);
                return (
                  <div key={m.id} role="listitem" data-testid={`music-${m.id}`} style={ROW}>
                    <Button
                      type="text"
                      size="small"
                      icon={on ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
                      disabled={!ready}
                      onClick={() => preview.setPlaying(on ? null : m.id)}
                      aria-label={t(on ? 'audioPanel.stopPreview' : 'audioPanel.preview', { name })}
                      aria-pressed={on}
                      data-testid="music-play"
                    />
                    <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={name}>
                      {name}
                    </Typography.Text>
                    {m.state === 'processing' ? <Probing id={m.id} /> : null}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {ready ? formatTime(m.duration) : t(`material.state.${m.state}`, { defaultValue: m.state })}
                    </Typography.Text>
                    <Button
                      size="small"
                      type="primary"
                      ghost
                      icon={<PlusOutlined />}
                      disabled={!ready}
                      onClick={() => add(m)}
                      aria-label={t('audioPanel.add', { name })}
                      data-testid="music-add"
                    />
                  </div>
                );
              })}
            </div>
          )}
        </Spin>
      )}
    </div>
  );
}
