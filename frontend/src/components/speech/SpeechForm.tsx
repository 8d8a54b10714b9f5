/**
 * The fields of a dubbing (text to speech): the text, the voice (普通话 / English), the speed and
 * the pitch, with the ranges the server takes (docs/ai.md). A refusal the server names a field of
 * is shown under that field. Used by the editor's dubbing and the ability page.
 */
import { Form, Input, Radio, Slider } from 'antd';
import { useTranslation } from 'react-i18next';
import { SPEECH_MAX_CHARS, SPEECH_PITCH, SPEECH_RATE, SPEECH_VOICES, type SpeechInput, type SpeechVoice } from '@/api/ai';

/** A form's starting values: Mandarin at the voice's own speed and pitch. */
export const DEFAULT_SPEECH: SpeechInput = { text: '', voice: 'cmn', rate: SPEECH_RATE.normal, pitch: SPEECH_PITCH.normal };

/** The fields a refusal may name. */
const FIELDS = ['text', 'voice', 'rate', 'pitch'] as const;

/** The words of a refusal of `field`, in the page's language (the server's words go beside them). */
export function useRefusalText(): (field: string | null) => string | null {
  const { t } = useTranslation();
  return (field) => ((FIELDS as readonly string[]).includes(field ?? '') ? t(`speech.refused.${field}`, { max: SPEECH_MAX_CHARS }) : null);
}

export function SpeechForm({
  value,
  onChange,
  refused,
  disabled,
}: {
  value: SpeechInput;
  onChange: (next: SpeechInput) => void;
  /** The field a refusal named, and its words. */
  refused?: { field: string; text: string } | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const at = (field: string) => (refused?.field === field ? { validateStatus: 'error' as const, help: refused.text } : {});
  return (
    <Form layout="vertical" disabled={disabled} data-testid="speech-form">
      <Form.Item label={t('speech.text')} {...at('text')}>
        <Input.TextArea
          rows={4}
          maxLength={SPEECH_MAX_CHARS}
          showCount
          value={value.text}
          placeholder={t('speech.textPlaceholder', { max: SPEECH_MAX_CHARS })}
          onChange={(e) => onChange({ ...value, text: e.target.value })}
          data-testid="speech-text"
        />
      </Form.Item>
      <Form.Item label={t('speech.voice')} {...at('voice')}>
        <Radio.Group
          optionType="button"
          value={value.voice}
          onChange={(e) => onChange({ ...value, voice: e.target.value as SpeechVoice })}
          options={SPEECH_VOICES.map((v) => ({ value: v, label: <span data-testid={`speech-voice-${v}`}>{t(`speech.voices.${v}`)}</span> }))}
        />
      </Form.Item>
      <Form.Item label={t('speech.rate', { rate: value.rate.toFixed(1) })} {...at('rate')}>
        <Slider min={SPEECH_RATE.min} max={SPEECH_RATE.max} step={0.1} value={value.rate} onChange={(rate) => onChange({ ...value, rate })} data-testid="speech-rate" />
      </Form.Item>
      <Form.Item label={t('speech.pitch', { pitch: value.pitch })} {...at('pitch')}>
        <Slider min={SPEECH_PITCH.min} max={SPEECH_PITCH.max} step={1} value={value.pitch} onChange={(pitch) => onChange({ ...value, pitch })} data-testid="speech-pitch" />
      </Form.Item>
    </Form>
  );
}
