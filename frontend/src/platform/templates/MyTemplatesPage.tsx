import { Alert, Col, Pagination, Row, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyRingOrders, type RingOrder } from '@/api/ring';
import { TEMPLATE_PAGE_SIZE, useMyTemplates } from '@/api/template';
import { useAppSelector } from '@/app/hooks';
import { isChannelUser } from '@/auth/roles';
import { RingStateTag } from '@/components/ring/RingStateTag';
import { EmptyState } from '@/components/EmptyState';
import { AuditStateTag } from './components/AuditStateTag';
import { TemplateCard } from './components/TemplateCard';

/** How many of the caller's latest ring orders the page looks its templates' tasks up in. */
const RING_LOOKUP_SIZE = 50;

/** The latest order of each task (the list is newest first). */
function latestByTask(orders: RingOrder[] | undefined): Map<number, RingOrder> {
  const map = new Map<number, RingOrder>();
  for (const o of orders ?? []) if (!map.has(o.taskId)) map.set(o.taskId, o);
  return map;
}

/**
 * /mytemring: the templates the caller submitted, in any audit state, with the rejection reason,
 * and the ring state of a template's task when the caller ordered it as a ringtone.
 * /channel-temring (`channel`): the same list for a channel distributor or sub-distributor, whose
 * templates are the channel's; another user is told the page is the channel's and sees their own.
 */
export function MyTemplatesPage({ channel = false }: { channel?: boolean }) {
  const { t } = useTranslation();
  const roleId = useAppSelector((s) => s.user.roleId);
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError } = useMyTemplates(pageNum);
  const rings = latestByTask(useMyRingOrders({ page: 1, size: RING_LOOKUP_SIZE }).data?.list);
  const total = data?.total ?? 0;
  let body;
  if (isError) body = <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>;
  else if (!isFetching && total === 0) body = <EmptyState createPath="/my-works" />;
  else
    body = (
      <Spin spinning={isFetching && !data}>
        <Row gutter={[16, 16]}>
          {(data?.list ?? []).map((tpl) => (
            <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
              <TemplateCard
                template={tpl}
                extra={
                  <>
                    <AuditStateTag template={tpl} />
                    {tpl.taskId !== undefined && rings.has(tpl.taskId) ? <RingStateTag state={rings.get(tpl.taskId)?.state ?? 0} /> : null}
                  </>
                }
              />
            </Col>
          ))}
        </Row>
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          current={pageNum}
          pageSize={TEMPLATE_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          showTotal={(n) => t('tpl.total', { total: n })}
          onChange={setPageNum}
        />
      </Spin>
    );
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid={channel ? 'channel-templates' : 'my-templates'}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t(channel ? 'page.channelTemring' : 'page.mytemring')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(channel ? 'tpl.channelHint' : 'tpl.mineHint')}</Typography.Paragraph>
      {channel && !isChannelUser(roleId) ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('tpl.channelOnly')} data-testid="channel-only" /> : null}
      {body}
    </div>
  );
}
