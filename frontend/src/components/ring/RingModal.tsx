/**
 * The ring-setting modal (spec editor-core §2, docs/ringtone.md): a finished work's check against
 * the carrier's profile, the number (asked of the server), the copyright statement and optional
 * proof, the in-call preview, then saveRing and ringUpload and the order's state. A refusal is
 * worded next to the form, which keeps every value.
 */
import { Button, Checkbox, Col, Form, Modal, Row, Space, Spin, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_BASE } from '@/api/client';
import { isCancelledRequest } from '@/api/errors';
import { fixableReport, useAskPhone, useMyRingOrders, useRingCheck, useRingProfile, useSetRing, RING_PAGE_SIZE, type CopyrightProof, type RingOrder } from '@/api/ring';
import { toolFileUrl } from '@/api/toolbox';
import { useMediaTicket, withTicket, type TaskSummary } from '@/api/videoTask';
import { useTaskName } from '@/components/task/taskName';
import { InCallPreview, PreviewVideo } from './InCallPreview';
import { PhoneField, phoneVerdict, verdictOfError, type PhoneVerdict } from './PhoneField';
import { CopyrightProofField } from './CopyrightProofField';
import { FixSection } from './FixSection';
import { RingOrderResult } from './RingOrderResult';
import { SubmitError } from './SubmitError';
import { ViolationList } from './ViolationList';

/** The work the modal sets as a ringtone. */
export type RingWork = Pick<TaskSummary, 'id' | 'taskName' | 'videoUrl' | 'coverUrl'>;

interface RingForm {
  phone: string;
  agreed: boolean;
  proof: CopyrightProof | null;
}

/** The fix under way (`running`) and the one whose output the modal checks and orders (`fixed`). */
interface FixState {
  running: number | null;
  fixed: number | null;
}

const NO_FIX: FixState = { running: null, fixed: null };

function CheckSection({ taskId, fix, onFix }: { taskId: number; fix: FixState; onFix: (next: FixState) => void }) {
  const { t } = useTranslation();
  const check = useRingCheck(taskId, fix.fixed);
  const offerFix = fix.fixed === null && fixableReport(check.data);
  const onFixed = useCallback((id: number) => onFix({ running: id, fixed: id }), [onFix]);
  return (
    <div data-testid="ring-check">
      <Typography.Text strong>{t('ring.check.title')}</Typography.Text>
      <div style={{ marginTop: 4 }}>
        {check.isPending ? (
          <Spin size="small" />
        ) : check.isError ? (
          <Typography.Text type="danger" data-testid="ring-check-failed">
            {t('ring.check.failed')}
          </Typography.Text>
        ) : (
          <ViolationList report={check.data} />
        )}
      </div>
      {offerFix || fix.running !== null ? (
        <div style={{ marginTop: 8 }}>
          <FixSection taskId={taskId} fixId={fix.running} onStarted={(id) => onFix({ running: id, fixed: null })} onFixed={onFixed} />
        </div>
      ) : null}
    </div>
  );
}

/** The in-call preview of what would be ordered: the fixed video once a fix is done, else the work's own. */
function Preview({ work, fixed }: { work: RingWork; fixed: number | null }) {
  const { t } = useTranslation();
  const profile = useRingProfile();
  const ticket = useMediaTicket(fixed ?? work.id, true);
  if (!profile.data) return profile.isError ? <Typography.Text type="danger">{t('ring.preview.noProfile')}</Typography.Text> : <Spin />;
  const video = (ticketed: string) =>
    fixed !== null ? (
      <PreviewVideo key={`fix-${fixed}`} src={toolFileUrl(fixed, 0, ticketed)} />
    ) : (
      <PreviewVideo src={withTicket(work.videoUrl || `${API_BASE}/videotask/download?taskId=${work.id}`, ticketed)} poster={work.coverUrl ? withTicket(work.coverUrl, ticketed) : undefined} />
    );
  return (
    <Space orientation="vertical" align="center" style={{ width: '100%' }}>
      <InCallPreview safeTopPercent={profile.data.safeTopPercent} safeBottomPercent={profile.data.safeBottomPercent} width={216}>
        {ticket.data ? video(ticket.data.ticket) : <Spin />}
      </InCallPreview>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('ring.preview.hint')}
      </Typography.Text>
    </Space>
  );
}

/** The server's verdict on a number, or why the ask failed. */
interface PhoneAnswerShown {
  phone: string;
  verdict: PhoneVerdict | null;
  error: unknown;
}

/**
 * Asks the server about the number in the form; remembers which number the verdict is for, and a
 * second ask of the number being asked (the field left by a click on submit) waits for the first.
 */
function usePhoneVerdict() {
  const ask = useAskPhone();
  const [answer, setShown] = useState<PhoneAnswerShown | null>(null);
  // The latest answer for the asks of a render already past (a submit that waited on validation).
  const latest = useRef<PhoneAnswerShown | null>(null);
  const setAnswer = (next: PhoneAnswerShown) => {
    latest.current = next;
    setShown(next);
  };
  const asking = useRef<{ phone: string; done: Promise<PhoneVerdict | null> } | null>(null);
  const run = (phone: string): Promise<PhoneVerdict | null> => {
    const number = phone.trim();
    if (number === '') return Promise.resolve(null);
    const known = latest.current;
    if (known?.phone === number && known.verdict !== null) return Promise.resolve(known.verdict);
    if (asking.current?.phone === number) return asking.current.done;
    const done = ask.mutateAsync(number).then(
      (reply) => {
        const verdict = phoneVerdict(reply);
        setAnswer({ phone: number, verdict, error: null });
        return verdict;
      },
      (err: unknown) => {
        if (!isCancelledRequest(err)) setAnswer({ phone: number, verdict: verdictOfError(err), error: err });
        return verdictOfError(err);
      },
    );
    asking.current = { phone: number, done };
    void done.finally(() => {
      if (asking.current?.done === done) asking.current = null;
    });
    return done;
  };
  return { run, answer, asking: ask.isPending };
}

function RingFormBody({ work, fix, onFix, onDone }: { work: RingWork; fix: FixState; onFix: (next: FixState) => void; onDone: (order: RingOrder) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RingForm>();
  const phone = Form.useWatch('phone', form) ?? '';
  const verdict = usePhoneVerdict();
  const setRing = useSetRing();
  const current = verdict.answer?.phone === phone.trim() ? verdict.answer : null;
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const answered = await verdict.run(values.phone);
    if (answered !== 'ok') return;
    setRing.mutate(
      { taskId: work.id, phone: values.phone.trim(), copyrightAgreed: values.agreed, ...(values.proof ? { copyrightId: values.proof.id } : {}), ...(fix.fixed !== null ? { fixId: fix.fixed } : {}) },
      { onSuccess: onDone },
    );
  };

  return (
    <Form<RingForm> form={form} layout="vertical" initialValues={{ phone: '', agreed: false, proof: null }} requiredMark={false} data-testid="ring-form">
      <CheckSection taskId={work.id} fix={fix} onFix={onFix} />
      <Form.Item name="phone" label={t('ring.phone.label')} rules={[{ required: true, whitespace: true, message: t('ring.phone.required') }]} style={{ marginTop: 16 }}>
        <PhoneField onAsk={(number) => void verdict.run(number)} asking={verdict.asking} verdict={current?.verdict ?? null} askError={current?.error ?? null} />
      </Form.Item>
      <Form.Item
        name="agreed"
        valuePropName="checked"
        rules={[{ validator: (_, v: boolean) => (v ? Promise.resolve() : Promise.reject(new Error(t('ring.copyright.required')))) }]}
        style={{ marginBottom: 8 }}
      >
        <Checkbox data-testid="ring-agree">{t('ring.copyright.statement')}</Checkbox>
      </Form.Item>
      <Form.Item name="proof" label={t('ring.copyright.proof')}>
        <CopyrightProofField />
      </Form.Item>
      {setRing.isError ? <SubmitError error={setRing.error} /> : null}
      <Button type="primary" block loading={setRing.isPending} onClick={() => void submit()} data-testid="ring-submit">
        {t('ring.submit')}
      </Button>
    </Form>
  );
}

export interface RingModalProps {
  /** The finished work (status 10) to set; the modal is closed while null. */
  work: RingWork | null;
  onClose: () => void;
}

/** The ring-setting modal of a finished work. */
export function RingModal({ work, onClose }: RingModalProps) {
  const { t } = useTranslation();
  const shown = useTaskName();
  const [order, setOrder] = useState<RingOrder | null>(null);
  // The modal's fix: the form orders its output and the preview plays it.
  const [fix, setFix] = useState<FixState>(NO_FIX);
  const close = () => {
    setOrder(null);
    setFix(NO_FIX);
    onClose();
  };
  return (
    <Modal
      open={work !== null}
      title={<span data-testid="ring-modal-title">{t('ring.modalTitle', { name: work ? shown(work.taskName) : '' })}</span>}
      onCancel={close}
      footer={null}
      width={820}
      destroyOnHidden
      centered
      data-testid="ring-modal"
    >
      {work ? (
        <Row gutter={24}>
          <Col xs={24} md={10}>
            <Preview work={work} fixed={fix.fixed} />
          </Col>
          <Col xs={24} md={14}>{order ? <LiveOrder order={order} onClose={close} /> : <RingFormBody work={work} fix={fix} onFix={setFix} onDone={setOrder} />}</Col>
        </Row>
      ) : null}
    </Modal>
  );
}

/** The order just made, followed in the caller's order list (asked again while it is being set). */
function LiveOrder({ order, onClose }: { order: RingOrder; onClose: () => void }) {
  const listed = useMyRingOrders({ page: 1, size: RING_PAGE_SIZE }).data?.list.find((o) => o.id === order.id);
  return <RingOrderResult order={listed ?? order} onClose={onClose} />;
}
