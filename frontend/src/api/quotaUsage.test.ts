import { applyLanguage } from '@/app/i18n';
import { formatBytes } from './bytes';
import { ApiError, errorText } from './errors';
import { quotaPercent, quotaUsageText } from './quotaUsage';

const GIB = 1024 ** 3;

describe('quota usage', () => {
  it('reads bytes as people do', () => {
    expect([formatBytes(0), formatBytes(37 * 1024), formatBytes(1.2 * GIB), formatBytes(5 * GIB), formatBytes(150 * 1024 ** 2)]).toEqual([
      '0 B',
      '37 KB',
      '1.2 GB',
      '5 GB',
      '150 MB',
    ]);
  });

  it('fills by the fuller quota; unlimited quotas fill nothing', () => {
    expect(quotaPercent({ usedBytes: GIB, limitBytes: 4 * GIB, materials: 1800, limitMaterials: 2000 })).toBe(90);
    expect(quotaPercent({ usedBytes: 6 * GIB, limitBytes: 5 * GIB, materials: 0, limitMaterials: 0 })).toBe(100);
    expect(quotaPercent({ usedBytes: GIB, limitBytes: 0, materials: 9, limitMaterials: 0 })).toBe(0);
  });

  it('says the usage and a quota refusal in the page language', async () => {
    const usage = { usedBytes: 1.2 * GIB, limitBytes: 5 * GIB, materials: 37, limitMaterials: 2000 };
    expect(quotaUsageText(usage)).toBe('已用 1.2 GB / 5 GB · 37 / 2000 个素材');
    const refused = new ApiError({ kind: 'http', url: '/upload/material', status: 413, desc: 'quota exceeded: delete materials to make room', message: 'x', data: { reason: 'quota_exceeded', ...usage, limitBytes: 0 } });
    expect(errorText(refused)).toBe('素材空间已满（已用 1.2 GB / 不限 · 37 / 2000 个素材），请删除不用的素材后再上传');
    await applyLanguage('en-US');
    try {
      expect(quotaUsageText(usage)).toBe('Used 1.2 GB of 5 GB · 37 of 2000 materials');
      expect(errorText(refused)).toBe('Your material storage is full (Used 1.2 GB of unlimited · 37 of 2000 materials). Delete materials you no longer need, then upload again.');
    } finally {
      await applyLanguage('zh-CN');
    }
  });

  it('words the climax cut refusals by their reason in both languages', async () => {
    const refused = new ApiError({ kind: 'business', url: '/ai/climax', code: 3000, desc: 'materialId: material 9 is not music (it is picture)', message: 'x', data: { reason: 'not_music' } });
    expect(errorText(refused)).toBe('所选素材不是音乐，请选择音频素材');
    await applyLanguage('en-US');
    try {
      expect(errorText(refused)).toBe('This material is not music; choose an audio material');
    } finally {
      await applyLanguage('zh-CN');
    }
  });
});
