/**
 * Colour pickers with the 14 recent colours of spec §9 as presets: every pick goes first in the
 * editor slice's `recentColors`, which are kept per user in localStorage.
 */
import { ColorPicker, type ColorPickerProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch, useEditorSelector } from './useEditor';

/** Where a user's recent colours are kept. */
export function recentColorsKey(userId: string): string {
  return `reelforge.editor.recentColors.${userId}`;
}

/** The recent colours stored for a user; nothing when there are none or they are unreadable. */
export function readRecentColors(userId: string): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(recentColorsKey(userId)) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

/** Loads the signed-in user's recent colours into the slice, and stores them as they change. */
export function useStoredRecentColors(): void {
  const dispatch = useEditorDispatch();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const colours = useEditorSelector((s) => s.recentColors);
  useEffect(() => {
    dispatch(a.setRecentColors(readRecentColors(userId)));
  }, [dispatch, userId]);
  useEffect(() => {
    // The first run writes what was just read (or nothing yet); a later run writes a new pick.
    if (colours.length > 0) localStorage.setItem(recentColorsKey(userId), JSON.stringify(colours));
  }, [colours, userId]);
}

/** The hex the pickers write: #rrggbb, or #rrggbbaa when not opaque. */
export function pickedHex(value: { toHexString: () => string; toHex?: () => string }): string {
  const hex = value.toHexString();
  return hex.length === 9 && hex.toLowerCase().endsWith('ff') ? hex.slice(0, 7) : hex;
}

export interface ColorFieldProps {
  value: string;
  onChange: (hex: string) => void;
  /** With an alpha slider (else the colour is always opaque). */
  alpha?: boolean;
  /** The colour may be none (""): the picker offers to clear it. */
  clearable?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
}

/** A colour picker offering the recent colours; a pick is recorded among them. */
export function ColorField({ value, onChange, alpha = false, clearable = false, ...rest }: ColorFieldProps) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const recent = useEditorSelector((s) => s.recentColors);
  const presets: ColorPickerProps['presets'] = recent.length > 0 ? [{ label: t('editor.recentColors'), colors: recent, defaultOpen: true }] : undefined;
  return (
    <ColorPicker
      size="small"
      showText
      disabledAlpha={!alpha}
      value={value || (clearable ? null : '#000000')}
      allowClear={clearable}
      onClear={() => onChange('')}
      presets={presets}
      onChangeComplete={(c) => {
        const hex = alpha ? pickedHex(c) : c.toHexString().slice(0, 7);
        dispatch(a.colorUsed(hex));
        onChange(hex);
      }}
      {...rest}
    />
  );
}
