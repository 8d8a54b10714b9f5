/**
 * The editor's material library (spec platform §2 "Material library (in the editor)", editor-core §2):
 * groups, their tabs, and where each tab's materials come from. A tab with no backend source yet
 * has `source: null` and says so instead of showing anything.
 */
import type { MaterialFilter, MaterialType } from '@/api/material';
import { ALL_CATEGORIES } from '@/api/material';

/** System category of masks (spec editor-core §7: system materials by categoryId, e.g. 2003 masks). */
export const MASK_CATEGORY = 2003;
/** The starter library's button samples, atmosphere and border effects (docs/materials.md). */
export const BUTTON_CATEGORY = 4001;
export const ATMOSPHERE_CATEGORY = 5001;
export const BORDER_CATEGORY = 5002;

/** The background style classes (spec editor-core §2), by their `styleId`. */
export const BACKGROUND_STYLES = [
  { id: 1, key: 'gradient' },
  { id: 2, key: 'chinese' },
  { id: 3, key: 'realShot' },
  { id: 4, key: 'handDrawn' },
  { id: 5, key: 'texture' },
  { id: 6, key: 'tech' },
  { id: 7, key: 'business' },
  { id: 8, key: 'other' },
] as const;

/** Which materials a tab lists; `motion` keeps only stills or only timed ones from a mixed kind. */
export interface LibrarySource {
  source: MaterialFilter['source'];
  type?: MaterialType;
  categoryId: number;
  motion?: 'still' | 'moving';
}

/** One tab of a group. */
export interface LibraryTab {
  key: string;
  source: LibrarySource | null;
}

/** A top-level group of the panel. */
export interface LibraryGroup {
  key: string;
  tabs: LibraryTab[];
  /** The group where the user's uploads land; it carries the upload button. */
  uploads?: boolean;
  /** The group offers the style classes as a filter. */
  styles?: boolean;
}

const system = (type: MaterialType, motion?: LibrarySource['motion']): LibrarySource => ({
  source: 'default',
  type,
  categoryId: ALL_CATEGORIES,
  ...(motion ? { motion } : {}),
});

/** The library, in panel order. */
export const LIBRARY: LibraryGroup[] = [
  { key: 'mine', uploads: true, tabs: [{ key: 'uploads', source: { source: 'user', categoryId: ALL_CATEGORIES } }] },
  {
    key: 'text',
    tabs: [
      { key: 'artWord', source: system('artWord') },
      { key: 'dynamicWord', source: system('dynamicWord') },
      { key: 'animatedWord', source: null },
    ],
  },
  {
    key: 'picture',
    tabs: [
      { key: 'static', source: system('picture') },
      { key: 'dynamic', source: system('gif') },
      { key: 'animation', source: null },
      { key: 'mask', source: { source: 'default', categoryId: MASK_CATEGORY } },
      { key: 'preset', source: null },
    ],
  },
  { key: 'video', tabs: [{ key: 'video', source: system('video') }] },
  {
    key: 'background',
    styles: true,
    tabs: [
      { key: 'static', source: system('backgrounds', 'still') },
      { key: 'dynamic', source: system('backgrounds', 'moving') },
    ],
  },
  { key: 'button', tabs: [{ key: 'button', source: { source: 'default', categoryId: BUTTON_CATEGORY } }] },
  {
    key: 'effect',
    tabs: [
      { key: 'all', source: system('specialEffects') },
      { key: 'atmosphere', source: { source: 'default', type: 'specialEffects', categoryId: ATMOSPHERE_CATEGORY } },
      { key: 'border', source: { source: 'default', type: 'specialEffects', categoryId: BORDER_CATEGORY } },
    ],
  },
];
