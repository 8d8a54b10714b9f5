/**
 * The property panel's slot section in the template modes: mark a text, art word, picture, GIF or
 * video as replaceable (`canModify` 1), give a text slot its most length (`maxLength`, 0 none) and,
 * for a business card, the card field it is filled from (`cardField`).
 */
import { Checkbox, InputNumber, Select, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CARD_FIELDS } from '@/api/template';
import type { Layer } from '@/editor/model/gen/Layer';
import { Field } from '@/editor/page/fields';
import type { LayerPatch } from '@/editor/state/editorSlice';
import { slotKindOf, type ModeRules } from './modes';

type Set = (changes: LayerPatch) => void;

function SlotFields({ layer, set, mode }: { layer: Layer; set: Set; mode: ModeRules }) {
  const { t } = useTranslation();
  const kind = slotKindOf(layer.type);
  const on = layer.canModify === 1;
  const text = layer.type === 'word' || layer.type === 'artWord' ? layer : null;
  return (
    <div data-testid="slot-fields">
      <Checkbox checked={on} onChange={(e) => set({ canModify: e.target.checked ? 1 : 0 })} data-testid="slot-toggle" style={{ marginBottom: 8 }}>
        {t('editorMode.slot.replaceable', { kind: t(`editorMode.slot.kind.${kind}`) })}
      </Checkbox>
      {text && on && (
        <Field label={t('editorMode.slot.maxLength')}>
          <InputNumber
            size="small"
            aria-label={t('editorMode.slot.maxLength')}
            data-testid="slot-max-length"
            min={0}
            max={500}
            precision={0}
            value={text.maxLength ?? 0}
            style={{ width: '100%' }}
            onChange={(v) => typeof v === 'number' && set({ maxLength: v })}
          />
        </Field>
      )}
      {text && mode.cardFields && (
        <Field label={t('editorMode.slot.cardField')}>
          <Select
            size="small"
            aria-label={t('editorMode.slot.cardField')}
            data-testid="slot-card-field"
            style={{ width: '100%' }}
            value={text.cardField ?? 0}
            options={[{ value: 0, label: t('editor.props.none') }, ...CARD_FIELDS.map((f) => ({ value: f.code, label: t(`card.field.${f.kind}`) }))]}
            // A text filled from a card field is a slot of the card.
            onChange={(cardField: number) => set(cardField > 0 ? { cardField, canModify: 1 } : { cardField: 0 })}
          />
        </Field>
      )}
      {text && on && (text.maxLength ?? 0) > 0 && [...text.content].length > (text.maxLength ?? 0) && (
        <Typography.Text type="warning" data-testid="slot-too-long">
          {t('editorMode.slot.tooLong', { count: [...text.content].length, max: text.maxLength })}
        </Typography.Text>
      )}
    </div>
  );
}

/** The slot section of the property panel's collapse, or null when the mode or the layer has none. */
export function slotSection(layer: Layer, mode: ModeRules, set: Set, t: TFunction) {
  if (!mode.slots || slotKindOf(layer.type) === null) return null;
  return { key: 'slot', label: t('editorMode.slot.title'), children: <SlotFields layer={layer} set={set} mode={mode} /> };
}
