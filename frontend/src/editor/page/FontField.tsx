/** The text's font: the font library's picker (uploads, then system fonts) and the missing-glyph warning of spec §5. */
import { Alert, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { loadFontFace, styleFlags, useFonts, useGlyphCheck, type LibraryFont } from '@/editor/fonts/fonts';
import type { LayerPatch } from '@/editor/state/editorSlice';

export interface FontFieldProps {
  fontId: string | undefined;
  fontFamily: string;
  text: string;
  onChange: (changes: LayerPatch) => void;
}

/** A font's name in the list: its display name, its style unless regular, and whether it is the caller's upload. */
export function fontLabel(f: LibraryFont, mine: string): string {
  const style = f.style && !/^(regular|normal|book)$/i.test(f.style) ? ` ${f.style}` : '';
  return `${f.nameCN || f.name}${style}${f.system ? '' : ` · ${mine}`}`;
}

/** Picks a library font; the layer keeps its id, its family name and its weight and slant (which the renderer looks up). */
export function FontPicker({ fontId, fontFamily, onChange }: Omit<FontFieldProps, 'text'>) {
  const { t } = useTranslation();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const fonts = useFonts(userId);
  const list = fonts.data ?? [];
  const known = fontId !== undefined && list.some((f) => f.id === fontId);
  const options = [
    { value: '', label: t('editor.props.defaultFont') },
    // A font the list no longer offers (deleted upload) still shows by its family name.
    ...(fontId !== undefined && !known ? [{ value: fontId, label: fontFamily || fontId }] : []),
    ...list.map((f) => ({ value: f.id, label: fontLabel(f, t('editor.font.mine')) })),
  ];
  return (
    <Select
      size="small"
      aria-label={t('editor.props.fontFamily')}
      data-testid="font-picker"
      style={{ width: '100%' }}
      loading={fonts.isLoading}
      value={fontId ?? ''}
      showSearch={{ optionFilterProp: 'label' }}
      options={options}
      onChange={(id: string) => {
        const font = list.find((f) => f.id === id);
        if (!font) {
          onChange({ fontId: undefined, fontFamily: '' });
          return;
        }
        const flags = styleFlags(font.style);
        loadFontFace(font.id, font.name, flags).catch(() => undefined);
        onChange({ fontId: font.id, fontFamily: font.name, ...flags });
      }}
    />
  );
}

/** Warns, a moment after the text rests, of the characters the chosen font would draw blank. */
export function GlyphWarning({ fontId, text }: { fontId: string | undefined; text: string }) {
  const { t } = useTranslation();
  const check = useGlyphCheck(fontId, text);
  if (!check.data || check.data.ok) return null;
  return <Alert type="warning" showIcon data-testid="glyph-warning" style={{ marginTop: 8 }} title={t('editor.font.missing', { chars: check.data.missing })} />;
}
