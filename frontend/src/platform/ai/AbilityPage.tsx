import { RobotOutlined } from '@ant-design/icons';
import { Alert, Button, Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SPEECH_RECOGNITION, TEXT_ABILITIES, TEXT_TO_SPEECH, useAbilities } from '@/api/ai';
import { VIDEO_AUDITING } from '@/api/audit';
import { PICTURE_ABILITIES } from '@/api/picture';
import { NotFound } from '@/components/NotFound';
import { parseAbilitySlug } from './abilitySlug';
import { AuditPanel } from './AuditPanel';
import { KeywordsPanel } from './KeywordsPanel';
import { isMediaAbility, MEDIA_ABILITIES, MediaPanel } from './MediaPanel';
import { PicturePanel } from './PicturePanel';
import { RecognitionPanel } from './RecognitionPanel';
import { SpeechPanel } from './SpeechPanel';
import { TextPanel } from './TextPanel';

const BUILT: readonly string[] = [...TEXT_ABILITIES, 'keyword-extraction', TEXT_TO_SPEECH, SPEECH_RECOGNITION, VIDEO_AUDITING, ...Object.keys(MEDIA_ABILITIES), ...PICTURE_ABILITIES];

/** /ai/ability/:slug: the ability's real page where one is built (text abilities, keywords, speech), with
 *  the server's reason when it is not available; "coming" for the rest; malformed slugs are not found. */
export function AbilityPage() {
  const { t, i18n } = useTranslation();
  const parsed = parseAbilitySlug(useParams().slug);
  const list = useAbilities();
  if (!parsed) return <NotFound />;
  const ability = list.data?.find((a) => a.key === parsed.ability && a.group === parsed.kind);
  if (list.isPending) return <Spin />;
  if (!ability || !BUILT.includes(ability.key)) {
    return (
      <Result
        data-testid="coming-soon"
        icon={<RobotOutlined style={{ color: '#5b3df5' }} />}
        title={t('soon.title', { page: `${t('page.aiAbility')} · ${parsed.kind}/${parsed.ability}` })}
        subTitle={<Typography.Text>{t('soon.subtitle')}</Typography.Text>}
        extra={
          <Link to="/ai/list">
            <Button type="primary">{t('page.aiList')}</Button>
          </Link>
        }
      />
    );
  }
  const name = i18n.language.startsWith('zh') ? ability.nameZh : ability.nameEn;
  return (
    <div style={{ padding: 24, maxWidth: 900 }}>
      <Typography.Title level={3}>{name}</Typography.Title>
      {!ability.available && (
        <Alert
          type="warning"
          style={{ marginBottom: 12 }}
          message={t(`ai.reason.${ability.reasonCode ?? 'not-configured'}`, { defaultValue: ability.reasonCode })}
          description={ability.reason}
        />
      )}
      {ability.key === 'keyword-extraction' ? (
        <KeywordsPanel />
      ) : ability.key === TEXT_TO_SPEECH ? (
        <SpeechPanel available={ability.available} />
      ) : isMediaAbility(ability.key) ? (
        <MediaPanel key={ability.key} ability={ability.key} available={ability.available} />
      ) : ability.key === SPEECH_RECOGNITION ? (
        <RecognitionPanel available={ability.available} />
      ) : ability.key === VIDEO_AUDITING ? (
        <AuditPanel available={ability.available} />
      ) : (PICTURE_ABILITIES as readonly string[]).includes(ability.key) ? (
        <PicturePanel key={ability.key} ability={ability.key} available={ability.available} />
      ) : (
        <TextPanel ability={ability.key} />
      )}
    </div>
  );
}
