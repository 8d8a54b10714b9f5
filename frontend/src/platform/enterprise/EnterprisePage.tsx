/**
 * The enterprise workspace (`/workbench/yqx`, alias `/yqx`): the works and materials the members of
 * the caller's enterprise shared, with who shared them and when. Members share their own items, copy
 * a shared work into their works, take their own shares out; an enterprise administrator (operator
 * level 2) also sees and manages the members and takes any share out. A user in no enterprise sees
 * an empty state that says whom to ask.
 */
import { ShareAltOutlined, TeamOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, Popconfirm, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCopyShare, useEnterpriseSpace, useUnshare, type ShareDto } from '@/api/enterprise';
import { PlayableCover, PlayerModal } from '@/components/media/PlayableCover';
import { enterpriseErrorText } from './enterpriseErrors';
import { MembersPanel } from './MembersPanel';
import { ShareModal } from './ShareModal';

const PAGE = { maxWidth: 1120, margin: '0 auto' } as const;

function ShareCard({ share, admin, onPlay }: { share: ShareDto; admin: boolean; onPlay: (s: ShareDto) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = useCopyShare();
  const unshare = useUnshare();
  const failed = copy.error ?? unshare.error;
  const actions = [];
  if (share.kind === 'work') {
    actions.push(
      <Button
        key="copy"
        type="link"
        size="small"
        loading={copy.isPending}
        data-testid={`share-copy-${share.id}`}
        onClick={() =>
          copy.mutate(share.id, {
            onSuccess: () => void message.success(<span data-testid="share-copied">{t('enterprise.copied')}</span>),
          })
        }
      >
        {t('enterprise.copy')}
      </Button>,
    );
  }
  if (share.mine || admin) {
    actions.push(
      <Popconfirm key="unshare" title={t('enterprise.unshareConfirm')} onConfirm={() => unshare.mutate(share.id)} okButtonProps={{ 'data-testid': 'share-unshare-ok' }}>
        <Button type="link" size="small" danger loading={unshare.isPending} data-testid={`share-unshare-${share.id}`}>
          {t('enterprise.unshare')}
        </Button>
      </Popconfirm>,
    );
  }
  return (
    <Card size="small" style={{ width: 248 }} data-testid={`share-${share.id}`} actions={actions}>
      <PlayableCover
        item={share}
        onPlay={onPlay}
        label={t('enterprise.play', { name: share.name })}
        testId={share.videoUrl ? `share-play-${share.id}` : `share-media-${share.id}`}
        coverTestId={`share-cover-${share.id}`}
      />
      <Space orientation="vertical" size={0} style={{ marginTop: 8, width: '100%' }}>
        <Typography.Text strong ellipsis={{ tooltip: share.name }} data-testid={`share-name-${share.id}`}>
          {share.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: share.sharedBy }} data-testid={`share-by-${share.id}`}>
          {share.mine ? t('enterprise.sharedByMe') : t('enterprise.sharedBy', { user: share.sharedBy })}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {share.sharedTime}
          {share.kind === 'material' ? <Tag style={{ marginLeft: 8 }}>{t(`enterprise.kind.${share.mediaKind}`, { defaultValue: share.mediaKind })}</Tag> : null}
        </Typography.Text>
      </Space>
      {failed ? <Alert type="error" showIcon style={{ marginTop: 8 }} title={enterpriseErrorText(failed)} data-testid={`share-error-${share.id}`} /> : null}
      {copy.isSuccess ? (
        <Link to="/workbench/my-task" data-testid={`share-to-works-${share.id}`}>
          {t('enterprise.toMyWorks')}
        </Link>
      ) : null}
    </Card>
  );
}

function ShareGrid({ shares, admin, empty, onPlay }: { shares: ShareDto[]; admin: boolean; empty: string; onPlay: (s: ShareDto) => void }) {
  if (shares.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return (
    <Space wrap size={16} align="start">
      {shares.map((s) => (
        <ShareCard key={s.id} share={s} admin={admin} onPlay={onPlay} />
      ))}
    </Space>
  );
}

/** The enterprise workspace page. */
export function EnterprisePage() {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = useEnterpriseSpace();
  const [sharing, setSharing] = useState(false);
  const [playing, setPlaying] = useState<ShareDto | null>(null);
  const title = (
    <Typography.Title level={3} style={{ marginTop: 0 }}>
      {t('page.yqx')}
    </Typography.Title>
  );
  if (isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (isError) {
    return (
      <div style={PAGE}>
        {title}
        <Alert type="error" showIcon title={enterpriseErrorText(error)} data-testid="enterprise-error" />
      </div>
    );
  }
  const { enterprise, admin, shares } = data;
  if (!enterprise) {
    return (
      <div style={PAGE} data-testid="enterprise-page">
        {title}
        <Empty image={<TeamOutlined style={{ fontSize: 64, color: '#bbb' }} />} description={t('enterprise.none')} data-testid="enterprise-none" />
      </div>
    );
  }
  const works = shares.filter((s) => s.kind === 'work');
  const materials = shares.filter((s) => s.kind === 'material');
  const tabs = [
    { key: 'works', label: t('enterprise.works', { count: works.length }), children: <ShareGrid shares={works} admin={admin} empty={t('enterprise.noWorks')} onPlay={setPlaying} /> },
    {
      key: 'materials',
      label: t('enterprise.materials', { count: materials.length }),
      children: (
        <>
          <Typography.Paragraph type="secondary" data-testid="enterprise-material-note">
            {t('enterprise.materialNote')}
          </Typography.Paragraph>
          <ShareGrid shares={materials} admin={admin} empty={t('enterprise.noMaterials')} onPlay={setPlaying} />
        </>
      ),
    },
  ];
  if (admin) tabs.push({ key: 'members', label: t('enterprise.members', { count: enterprise.memberCount }), children: <MembersPanel enterprise={enterprise} /> });
  return (
    <div style={PAGE} data-testid="enterprise-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start" wrap>
        <Space orientation="vertical" size={0}>
          {title}
          <Space>
            <Typography.Text strong data-testid="enterprise-name">
              {enterprise.name}
            </Typography.Text>
            <Typography.Text type="secondary">{t('enterprise.memberCount', { count: enterprise.memberCount })}</Typography.Text>
            {admin ? <Tag color="gold">{t('enterprise.adminTag')}</Tag> : null}
          </Space>
        </Space>
        <Button type="primary" icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="enterprise-share">
          {t('enterprise.share')}
        </Button>
      </Space>
      <Tabs items={tabs} style={{ marginTop: 16 }} />
      <ShareModal open={sharing} onClose={() => setSharing(false)} />
      <PlayerModal item={playing} onClose={() => setPlaying(null)} testId="share-video" />
    </div>
  );
}
