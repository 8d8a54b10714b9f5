import type { Material } from '@/api/material';

/** A material as the server lists it, ready unless told otherwise. */
export function material(id: string, change: Partial<Material> = {}): Material {
  return {
    id,
    materialName: `素材${id}`,
    type: 'picture',
    categoryId: -1,
    styleId: -1,
    openState: 0,
    reasonsForFailureOfAudit: '',
    state: 'ready',
    failReason: '',
    fileSize: 2048,
    size: '1280x720',
    width: 1280,
    height: 720,
    duration: 0,
    frameRate: 0,
    rotation: 0,
    hasAudio: false,
    codec: '',
    horizontalOrVertical: 0,
    url: `/diyvrbt/material/file/${id}/original?ticket=t`,
    coverUrl: `/diyvrbt/material/file/${id}/cover?ticket=t`,
    filmstripUrl: '',
    waveformUrl: '',
    previewUrl: '',
    createTime: '2026-11-23T10:00:00Z',
    ...change,
  };
}

/** A page of materials. */
export function page(list: Material[], pageNum = 1, total = list.length) {
  return { total, pageNum, pageSize: 30, dataList: list };
}
