import { Alert, DatePicker, Form, Input, InputNumber, Modal, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CONTEST_LIMITS, CONTEST_RANKINGS, useSaveContest, type ContestDto, type ContestRanking, type ContestSave } from '@/api/contest';
import { contestErrorText } from './contestErrors';

/** The picker's format: the server's own ("YYYY-MM-DD HH:mm:ss"). */
export const CONTEST_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

interface ContestFormValues {
  title: string;
  theme?: string;
  rules?: string;
  start?: Dayjs | null;
  end?: Dayjs | null;
  ranking: ContestRanking;
  templateId?: number | null;
}

function initialValues(contest: ContestDto | null): ContestFormValues {
  if (!contest) return { title: '', theme: '', rules: '', start: null, end: null, ranking: 'likes', templateId: null };
  return {
    title: contest.title,
    theme: contest.theme,
    rules: contest.rules,
    start: dayjs(contest.startMs),
    end: dayjs(contest.endMs),
    ranking: contest.ranking,
    templateId: contest.templateId > 0 ? contest.templateId : null,
  };
}

/** The body of POST /manage/contest/save for the form's values: trimmed texts, times in ms, template 0 for none. */
export function saveBody(values: ContestFormValues, id: number | null): ContestSave {
  return {
    ...(id !== null ? { id } : {}),
    title: values.title.trim(),
    theme: (values.theme ?? '').trim(),
    rules: (values.rules ?? '').trim(),
    startMs: values.start?.valueOf() ?? 0,
    endMs: values.end?.valueOf() ?? 0,
    ranking: values.ranking,
    templateId: values.templateId ?? 0,
  };
}

export interface ContestFormModalProps {
  /** The contest edited, or null for a new one. */
  contest: ContestDto | null;
  open: boolean;
  onClose: () => void;
  onSaved: (contest: ContestDto) => void;
}

/** Creates or edits a contest: title, theme, rules, start and end, ranking, an optional template. */
export function ContestFormModal({ contest, open, onClose, onSaved }: ContestFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ContestFormValues>();
  const save = useSaveContest();
  const close = () => {
    save.reset();
    onClose();
  };
  const finish = (values: ContestFormValues) =>
    save.mutate(saveBody(values, contest?.id ?? null), {
      onSuccess: (saved) => {
        save.reset();
        onSaved(saved);
      },
    });
  // The server refuses a new ranking once entries exist; the form says so before.
  const rankingLocked = (contest?.entryCount ?? 0) > 0;
  return (
    <Modal
      open={open}
      title={contest ? t('contest.form.editTitle', { title: contest.title }) : t('contest.form.newTitle')}
      okText={t('contest.form.save')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'contest-form-ok' }}
      onOk={() => form.submit()}
      onCancel={close}
      width={640}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={initialValues(contest)} onFinish={finish} data-testid="contest-form">
        <Form.Item name="title" label={t('contest.form.title')} rules={[{ required: true, whitespace: true, message: t('contest.error.titleRequired') }]}>
          <Input maxLength={CONTEST_LIMITS.title} showCount data-testid="contest-title-input" />
        </Form.Item>
        <Form.Item name="theme" label={t('contest.form.theme')}>
          <Input.TextArea maxLength={CONTEST_LIMITS.theme} showCount autoSize={{ minRows: 2, maxRows: 5 }} data-testid="contest-theme-input" />
        </Form.Item>
        <Form.Item name="rules" label={t('contest.form.rules')}>
          <Input.TextArea maxLength={CONTEST_LIMITS.rules} showCount autoSize={{ minRows: 3, maxRows: 8 }} data-testid="contest-rules-input" />
        </Form.Item>
        <Form.Item name="start" label={t('contest.form.start')} rules={[{ required: true, message: t('contest.form.startRequired') }]}>
          <DatePicker showTime format={CONTEST_TIME_FORMAT} style={{ width: '100%' }} data-testid="contest-start-input" />
        </Form.Item>
        <Form.Item
          name="end"
          label={t('contest.form.end')}
          dependencies={['start']}
          rules={[
            { required: true, message: t('contest.form.endRequired') },
            ({ getFieldValue }) => ({
              validator: (_, end: Dayjs | null | undefined) => {
                const start = getFieldValue('start') as Dayjs | null | undefined;
                return !start || !end || end.isAfter(start) ? Promise.resolve() : Promise.reject(new Error(t('contest.error.endBeforeStart')));
              },
            }),
          ]}
        >
          <DatePicker showTime format={CONTEST_TIME_FORMAT} style={{ width: '100%' }} data-testid="contest-end-input" />
        </Form.Item>
        <Form.Item
          name="ranking"
          label={t('contest.form.ranking')}
          extra={rankingLocked ? t('contest.form.rankingLocked') : t('contest.form.rankingHint')}
        >
          <Radio.Group disabled={rankingLocked}>
            {CONTEST_RANKINGS.map((r) => (
              <Radio key={r} value={r} data-testid={`contest-ranking-${r}`}>
                {t(`contest.ranking.${r}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="templateId" label={t('contest.form.template')} extra={t('contest.form.templateHint')}>
          <InputNumber min={0} precision={0} style={{ width: 200 }} placeholder={t('contest.form.templatePlaceholder')} data-testid="contest-template-input" />
        </Form.Item>
      </Form>
      {save.isError ? <Alert type="error" showIcon title={contestErrorText(save.error)} data-testid="contest-form-error" /> : null}
    </Modal>
  );
}
