import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Space, Switch, Table, Tag, Typography, Upload, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { errorText } from '@/api/errors';
import type { Material } from '@/api/material';
import { usePeaks, Waveform } from '@/components/material/Waveform';
import { MANAGE_PAGE_SIZE, useMusic, useUpdateMusic, useUploadMusic } from './manageApi';

/** The audio files the library takes (docs/materials.md, the upload kinds). */
const AUDIO_ACCEPT = '.mp3,.m4a,.aac,.wav,.ogg,.flac,.wma';

const STATE_COLOURS: Record<string, string> = { processing: 'processing', ready: 'success', failed: 'error' };

/** The track's waveform, drawn from the peaks made at upload. */
function TrackWaveform({ url }: { url: string }) {
  const peaks = usePeaks(url);
  return peaks ? <Waveform peaks={peaks} width={160} height={36} colour="#5b3df5" absolute={false} /> : <span>—</span>;
}

/** The track's mean loudness, measured when it was probed. */
function Loudness({ m }: { m: Material }) {
  const { data } = useQuery({
    queryKey: ['manage', 'loudness', m.id],
    queryFn: () => api.post<number>('/material/getVolumeDB', { materialId: m.id }),
    enabled: m.state === 'ready',
    staleTime: Infinity,
  });
  return <span data-testid={`loudness-${m.id}`}>{typeof data === 'number' ? `${data.toFixed(1)} dB` : '—'}</span>;
}

function duration(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** /manage/music-content: the tenant's system music (the editor's music tab): upload, rename, offer or withdraw, preview. */
export function MusicContentPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError, error } = useMusic(pageNum);
  const upload = useUploadMusic();
  const update = useUpdateMusic();
  const change = (m: Material, edit: { materialName?: string; openState?: number }) =>
    update.mutate({ materialIds: [m.id], ...edit }, { onSuccess: () => void message.success(t('manageArea.music.saved')), onError: (err) => void message.error(errorText(err)) });

  const columns: TableColumnsType<Material> = [
    {
      title: t('manageArea.music.name'),
      key: 'name',
      render: (_, m) => (
        <Typography.Text
          data-testid={`music-name-${m.id}`}
          editable={{ onChange: (name) => name.trim() && name.trim() !== m.materialName && change(m, { materialName: name.trim() }), triggerType: ['icon'] }}
        >
          {m.materialName}
        </Typography.Text>
      ),
    },
    { title: t('manageArea.music.category'), key: 'category', render: () => t('manageArea.music.categoryMusic') },
    { title: t('manageArea.music.duration'), key: 'duration', render: (_, m) => (m.state === 'ready' ? duration(m.duration) : '—') },
    { title: t('manageArea.music.loudness'), key: 'loudness', render: (_, m) => <Loudness m={m} /> },
    {
      title: t('manageArea.music.waveform'),
      key: 'waveform',
      render: (_, m) => (m.waveformUrl ? <TrackWaveform url={m.waveformUrl} /> : <Tag color={STATE_COLOURS[m.state]}>{t(`manageArea.music.state.${m.state}`, { defaultValue: m.state })}</Tag>),
    },
    { title: t('manageArea.music.preview'), key: 'preview', render: (_, m) => (m.url ? <audio controls preload="none" src={m.url} style={{ height: 32, width: 220 }} data-testid={`music-play-${m.id}`} /> : null) },
    {
      title: t('manageArea.music.offered'),
      key: 'offered',
      render: (_, m) => (
        <Switch
          checked={m.openState === 1}
          loading={update.isPending}
          onChange={(on) => change(m, { openState: on ? 1 : 0 })}
          checkedChildren={t('manageArea.music.on')}
          unCheckedChildren={t('manageArea.music.off')}
          data-testid={`music-offered-${m.id}`}
        />
      ),
    },
  ];

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="music-content">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('page.musicContent')}
        </Typography.Title>
        <Upload
          accept={AUDIO_ACCEPT}
          showUploadList={false}
          beforeUpload={(file) => {
            upload.mutate(
              { file },
              { onSuccess: () => void message.success(t('manageArea.music.uploaded', { name: file.name })), onError: (err) => void message.error(errorText(err)) },
            );
            return false;
          }}
        >
          <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending} data-testid="music-upload">
            {t('manageArea.music.upload')}
          </Button>
        </Upload>
      </Space>
      <Typography.Paragraph type="secondary">{t('manageArea.music.intro')}</Typography.Paragraph>
      {isError ? (
        <Typography.Text type="danger">{errorText(error)}</Typography.Text>
      ) : (
        <Table<Material>
          rowKey="id"
          loading={isFetching && !data}
          columns={columns}
          dataSource={data?.dataList ?? []}
          pagination={{ current: pageNum, pageSize: MANAGE_PAGE_SIZE, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNum }}
        />
      )}
    </div>
  );
}
