import type { TaskVideoCategory } from '@/api/category';
import type { TemplateSlot, TemplateSummary } from '@/api/template';

/** A template summary with sensible defaults. */
export const tpl = (id: number, change: Partial<TemplateSummary> = {}): TemplateSummary => ({
  id,
  taskName: `模板${id}`,
  kind: 'classic',
  usedFor: 'TASK_TEMPLATE',
  sizeCategoryId: 50,
  categoryIds: [],
  coverUrl: `/cover/${id}.jpg`,
  videoUrl: '',
  duration: 15,
  replaceWord: 2,
  replacePicture: 1,
  replaceVideo: 0,
  auditState: 'approved',
  reason: '',
  push: false,
  creatorId: 'u1',
  createTime: '2026-11-01 10:00:00',
  updateTime: '2026-11-01 10:00:00',
  ...change,
});

/** A slot with sensible defaults. */
export const slot = (id: string, materialType: TemplateSlot['materialType'], change: Partial<TemplateSlot> = {}): TemplateSlot => ({
  id,
  sceneIndex: 0,
  materialType,
  content: materialType === 'text' ? '原文字' : '/tpl/own.png',
  maxLength: materialType === 'text' ? 8 : 0,
  width: 100,
  height: 50,
  ...change,
});

/** A category with its children. */
export const cat = (categoryId: number, categoryName: string, children: TaskVideoCategory[] = []): TaskVideoCategory => ({
  categoryId,
  categoryName,
  dimension: 'industry',
  higherUpId: -1,
  push: false,
  children,
});

/** Answers GET /system/info the way the layout's health check needs. */
export const SYSTEM_INFO = { name: 'reelforge', version: '0.1.0', mode: 'all' };
